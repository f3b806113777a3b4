import type { Row, SqlExecutor } from '@social-link-kit/server/sandbox-host.js';
import { newId } from '@social-link-kit/server/sandbox-kit.js';
/**
 * @module
 * The sandbox networks' state (tables of migration 7, schema.ts), over the shared SQL driver. Times are the service
 * clock's epoch milliseconds, passed in by the caller.
 */

export type SandboxPostStatus = 'published' | 'processing' | 'failed' | 'deleted';

export interface SandboxMedia {
  url: string;
  /** Set for media the sandbox holds itself (bluesky blobs). */
  mimeType?: string;
  kind?: 'image' | 'video';
}

export interface SandboxPost {
  id: string;
  platform: string;
  accountId: string;
  networkId: string;
  clientKey: string | null;
  text: string;
  media: SandboxMedia[];
  /** The network's full payload (bluesky record, telegram message, generic options), JSON. */
  record: Record<string, unknown> | null;
  status: SandboxPostStatus;
  error: string | null;
  createdAt: number;
  /** Until this time a processing post stays `processing` (tiktok); equal to createdAt otherwise. */
  readyAt: number;
  deletedAt: number | null;
}

export interface SandboxComment {
  id: string;
  postId: string;
  text: string;
  media: SandboxMedia[];
  createdAt: number;
}

/**
 * `login`: a browser signed in to the sandbox network's consent screen (its cookie), as a network remembers you;
 * `feed`: the key in a feed address the API handed out (its account id is the profile's reference id).
 */
export type SandboxTokenKind = 'access' | 'refresh' | 'login' | 'feed' | 'inbox';

export interface SandboxToken {
  platform: string;
  accountId: string;
  kind: SandboxTokenKind;
  handle: string | null;
  expiresAt: number | null;
  usedAt: number | null;
}

export type NewSandboxPost = Omit<SandboxPost, 'id' | 'deletedAt'>;

/** A user of one sandbox network (migration 15): what the network knows of the person who signed in. */
export interface SandboxUser {
  platform: string;
  accountId: string;
  handle: string;
  displayName: string;
  /** bluesky: the hash of the user's app password. */
  passwordHash: string | null;
  /** What the network reports of the user: instagram `accountType`, threads `geoEligible`. */
  details: Record<string, unknown>;
}

/** An authorization code of the sandbox OAuth server, as bound at consent. */
export interface SandboxCode {
  platform: string;
  accountId: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
  scope: string;
  /** The consent screen's "refused code exchange" choice: the exchange answers invalid_grant. */
  refuseExchange: boolean;
  expiresAt: number;
}

function toPost(row: Row): SandboxPost {
  return {
    id: row.id as string,
    platform: row.platform as string,
    accountId: row.account_id as string,
    networkId: row.network_id as string,
    clientKey: (row.client_key as string | null) ?? null,
    text: row.text as string,
    media: JSON.parse(row.media as string) as SandboxMedia[],
    record: row.record ? (JSON.parse(row.record as string) as Record<string, unknown>) : null,
    status: row.status as SandboxPostStatus,
    error: (row.error as string | null) ?? null,
    createdAt: row.created_at as number,
    readyAt: row.ready_at as number,
    deletedAt: (row.deleted_at as number | null) ?? null,
  };
}

/** A processing post whose time has come reads as published: the sandbox finishes work by the clock, not by timers. */
export function effectiveStatus(post: SandboxPost, now: number): SandboxPostStatus {
  // A processing post that carries an error fails when its processing ends (tiktok ingest failure).
  if (post.status === 'processing' && post.readyAt <= now) return post.error ? 'failed' : 'published';
  return post.status;
}

export class SandboxNetworkStore {
  constructor(private readonly db: SqlExecutor) {}

  /** Inserts the post; null when the account already has a post with that network id (the caller says "exists"). */
  async insertPost(post: NewSandboxPost): Promise<SandboxPost | null> {
    const id = newId('sbp_');
    const inserted = await this.db.get(
      `INSERT INTO sandbox_posts (id, platform, account_id, network_id, client_key, text, media, record, status, error, created_at, ready_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (platform, account_id, network_id) DO NOTHING RETURNING id`,
      [
        id,
        post.platform,
        post.accountId,
        post.networkId,
        post.clientKey,
        post.text,
        JSON.stringify(post.media),
        post.record ? JSON.stringify(post.record) : null,
        post.status,
        post.error,
        post.createdAt,
        post.readyAt,
      ],
    );
    return inserted ? { ...post, id, deletedAt: null } : null;
  }

  async findByNetworkId(platform: string, accountId: string, networkId: string): Promise<SandboxPost | null> {
    const row = await this.db.get('SELECT * FROM sandbox_posts WHERE platform = ? AND account_id = ? AND network_id = ? AND deleted_at IS NULL', [
      platform,
      accountId,
      networkId,
    ]);
    return row ? toPost(row) : null;
  }

  /** By network id on any account of the platform (generic ids are globally unique). */
  async findByPlatformId(platform: string, networkId: string): Promise<SandboxPost | null> {
    const row = await this.db.get('SELECT * FROM sandbox_posts WHERE platform = ? AND network_id = ? AND deleted_at IS NULL', [platform, networkId]);
    return row ? toPost(row) : null;
  }

  async listByClientKey(platform: string, accountId: string, clientKey: string): Promise<SandboxPost[]> {
    const rows = await this.db.all(
      'SELECT * FROM sandbox_posts WHERE platform = ? AND account_id = ? AND client_key = ? AND deleted_at IS NULL ORDER BY created_at, id',
      [platform, accountId, clientKey],
    );
    return rows.map(toPost);
  }

  /**
   * One page of an account's live posts, newest first, after the post with network id `after` (keyset paging on
   * `(created_at, id)`, as the real networks' cursors behave: a post made meanwhile does not shift the pages).
   * `next` is the network id of the page's last post when more follow.
   */
  async pageForAccount(platform: string, accountId: string, limit: number, after: string | null): Promise<{ posts: SandboxPost[]; next: string | null }> {
    const size = Math.max(1, Math.floor(limit));
    const cursor = after ? await this.db.get('SELECT created_at, id FROM sandbox_posts WHERE platform = ? AND account_id = ? AND network_id = ?', [platform, accountId, after]) : null;
    if (after && !cursor) return { posts: [], next: null };
    const rows = await this.db.all(
      `SELECT * FROM sandbox_posts WHERE platform = ? AND account_id = ? AND deleted_at IS NULL${cursor ? ' AND (created_at < ? OR (created_at = ? AND id < ?))' : ''}
       ORDER BY created_at DESC, id DESC LIMIT ${size + 1}`,
      cursor ? [platform, accountId, cursor.created_at, cursor.created_at, cursor.id] : [platform, accountId],
    );
    const posts = rows.slice(0, size).map(toPost);
    return { posts, next: rows.length > size ? posts.at(-1)!.networkId : null };
  }

  /** Offset paging (linkedin's `start` and `count`): one page of an account's live posts, newest first, and their total. */
  async offsetPageForAccount(platform: string, accountId: string, start: number, count: number): Promise<{ posts: SandboxPost[]; total: number }> {
    const rows = await this.db.all(
      `SELECT * FROM sandbox_posts WHERE platform = ? AND account_id = ? AND deleted_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ${Math.max(1, Math.floor(count))} OFFSET ${Math.max(0, Math.floor(start))}`,
      [platform, accountId],
    );
    const total = await this.db.get('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND account_id = ? AND deleted_at IS NULL', [platform, accountId]);
    return { posts: rows.map(toPost), total: Number(total?.n ?? 0) };
  }

  /** Posts of the given accounts (platform + account id pairs), newest first, deleted ones included. */
  async listForAccounts(accounts: { platform: string; accountId: string }[], limit = 200): Promise<SandboxPost[]> {
    if (accounts.length === 0) return [];
    const where = accounts.map(() => '(platform = ? AND account_id = ?)').join(' OR ');
    const rows = await this.db.all(`SELECT * FROM sandbox_posts WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${Math.floor(limit)}`, [
      ...accounts.flatMap((account) => [account.platform, account.accountId]),
    ]);
    return rows.map(toPost);
  }

  /**
   * The live posts among an account's `within` newest whose text is `text` (the duplicate checks of linkedin and X):
   * the recent rows are filtered in SQL, so a publish parses the few that match instead of `within` rows.
   */
  async recentWithText(platform: string, accountId: string, text: string, within: number): Promise<SandboxPost[]> {
    const rows = await this.db.all(
      `SELECT * FROM (SELECT * FROM sandbox_posts WHERE platform = ? AND account_id = ? ORDER BY created_at DESC, id DESC LIMIT ${Math.floor(within)}) recent
       WHERE deleted_at IS NULL AND text = ?`,
      [platform, accountId, text],
    );
    return rows.map(toPost);
  }

  /** How many posts an account made since `since`, deleted ones included (instagram's 24-hour publishing limit). */
  async countSince(platform: string, accountId: string, since: number): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND account_id = ? AND created_at > ?', [platform, accountId, since]);
    return Number(row?.n ?? 0);
  }

  async countForAccount(platform: string, accountId: string): Promise<number> {
    const row = await this.db.get('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND account_id = ?', [platform, accountId]);
    return Number(row?.n ?? 0);
  }

  /** Changes a post's status and record (Graph containers move through their states; a reel is finished). */
  async updatePost(id: string, change: { status: SandboxPostStatus; record: Record<string, unknown> | null; readyAt: number; media?: SandboxMedia[] }): Promise<void> {
    await this.db.run('UPDATE sandbox_posts SET status = ?, record = ?, ready_at = ?, media = COALESCE(?, media) WHERE id = ?', [
      change.status,
      change.record ? JSON.stringify(change.record) : null,
      change.readyAt,
      change.media ? JSON.stringify(change.media) : null,
      id,
    ]);
  }

  async markDeleted(id: string, now: number): Promise<boolean> {
    return (await this.db.run("UPDATE sandbox_posts SET deleted_at = ?, status = 'deleted' WHERE id = ? AND deleted_at IS NULL", [now, id])) > 0;
  }

  async addComment(postId: string, text: string, media: SandboxMedia[], now: number): Promise<SandboxComment> {
    const comment = { id: newId('sbc_'), postId, text, media, createdAt: now };
    await this.db.run('INSERT INTO sandbox_comments (id, post_id, text, media, created_at) VALUES (?, ?, ?, ?, ?)', [
      comment.id,
      postId,
      text,
      JSON.stringify(media),
      now,
    ]);
    return comment;
  }

  async listComments(postIds: string[]): Promise<SandboxComment[]> {
    if (postIds.length === 0) return [];
    const rows = await this.db.all(
      `SELECT * FROM sandbox_comments WHERE post_id IN (${postIds.map(() => '?').join(', ')}) ORDER BY created_at, id`,
      postIds,
    );
    return rows.map((row) => ({
      id: row.id as string,
      postId: row.post_id as string,
      text: row.text as string,
      media: JSON.parse(row.media as string) as SandboxMedia[],
      createdAt: row.created_at as number,
    }));
  }

  async putBlob(accountId: string, cid: string, mimeType: string, bytes: Uint8Array, now: number): Promise<void> {
    await this.db.run(
      `INSERT INTO sandbox_blobs (account_id, cid, mime_type, size, bytes_base64, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, cid) DO NOTHING`,
      [accountId, cid, mimeType, bytes.byteLength, Buffer.from(bytes).toString('base64'), now],
    );
  }

  async findBlob(accountId: string, cid: string): Promise<{ mimeType: string; size: number; bytes: Buffer } | null> {
    const row = await this.db.get('SELECT mime_type, size, bytes_base64 FROM sandbox_blobs WHERE account_id = ? AND cid = ?', [accountId, cid]);
    if (!row) return null;
    return { mimeType: row.mime_type as string, size: Number(row.size), bytes: Buffer.from(row.bytes_base64 as string, 'base64') };
  }

  async putToken(tokenHash: string, token: SandboxToken, now: number): Promise<void> {
    await this.db.run(
      'INSERT INTO sandbox_tokens (token_hash, platform, account_id, kind, handle, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [tokenHash, token.platform, token.accountId, token.kind, token.handle, now, token.expiresAt, token.usedAt],
    );
  }

  async findToken(tokenHash: string): Promise<SandboxToken | null> {
    const row = await this.db.get('SELECT * FROM sandbox_tokens WHERE token_hash = ?', [tokenHash]);
    if (!row) return null;
    return {
      platform: row.platform as string,
      accountId: row.account_id as string,
      kind: row.kind as SandboxToken['kind'],
      handle: (row.handle as string | null) ?? null,
      expiresAt: (row.expires_at as number | null) ?? null,
      usedAt: (row.used_at as number | null) ?? null,
    };
  }

  /** Spends a refresh token once; false when it was already used (rotation: the old one dies). */
  async useToken(tokenHash: string, now: number): Promise<boolean> {
    return (await this.db.run('UPDATE sandbox_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [now, tokenHash])) > 0;
  }

  /** False when the network already has a user with that handle (the caller picks another or signs in). */
  async insertUser(user: SandboxUser, now: number): Promise<boolean> {
    const inserted = await this.db.get(
      `INSERT INTO sandbox_users (platform, account_id, handle, display_name, password_hash, details, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING account_id`,
      [user.platform, user.accountId, user.handle, user.displayName, user.passwordHash, JSON.stringify(user.details), now],
    );
    return inserted !== null;
  }

  async findUser(platform: string, by: { accountId: string } | { handle: string }): Promise<SandboxUser | null> {
    const row =
      'accountId' in by
        ? await this.db.get('SELECT * FROM sandbox_users WHERE platform = ? AND account_id = ?', [platform, by.accountId])
        : await this.db.get('SELECT * FROM sandbox_users WHERE platform = ? AND handle = ?', [platform, by.handle]);
    if (!row) return null;
    return {
      platform: row.platform as string,
      accountId: row.account_id as string,
      handle: row.handle as string,
      displayName: row.display_name as string,
      passwordHash: (row.password_hash as string | null) ?? null,
      details: JSON.parse(row.details as string) as Record<string, unknown>,
    };
  }

  async putCode(codeHash: string, code: SandboxCode): Promise<void> {
    await this.db.run(
      `INSERT INTO sandbox_codes (code_hash, platform, account_id, client_id, redirect_uri, code_challenge, scope, refuse_exchange, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [codeHash, code.platform, code.accountId, code.clientId, code.redirectUri, code.codeChallenge, code.scope, code.refuseExchange ? 1 : 0, code.expiresAt],
    );
  }

  /** Spends the code: the first caller gets it (unexpired), every later one null, as an authorization server does. */
  async useCode(codeHash: string, now: number): Promise<SandboxCode | null> {
    const row = await this.db.get('UPDATE sandbox_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *', [now, codeHash, now]);
    if (!row) return null;
    return {
      platform: row.platform as string,
      accountId: row.account_id as string,
      clientId: row.client_id as string,
      redirectUri: row.redirect_uri as string,
      codeChallenge: (row.code_challenge as string | null) ?? null,
      scope: row.scope as string,
      refuseExchange: Number(row.refuse_exchange) === 1,
      expiresAt: Number(row.expires_at),
    };
  }
}
