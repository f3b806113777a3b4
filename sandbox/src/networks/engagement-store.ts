/**
 * @module
 * What the networks' own sandbox analytics and comment routes (twitter-, youtube-, linkedin-, tiktok-engagement-api.ts)
 * share: the comments under a sandbox post (the `sandbox_comments` rows the audience and the account wrote), and
 * metrics that grow with the service clock (insight-metrics.ts) with the account's analytics fault applied.
 */
import type { SqlDriver } from '@social-link-kit/server/sandbox-host.js';
import { newId } from '@social-link-kit/server/sandbox-kit.js';
import { grownMetrics } from './insight-metrics.js';
import type { InsightsFault } from './insights-faults.js';
import type { SandboxPost } from './store.js';

export interface StoredComment {
  id: string;
  text: string;
  /** The commenter; null for the account's own comments and replies. */
  author: string | null;
  replyTo: string | null;
  createdAt: number;
}

export async function commentsUnder(db: SqlDriver, postId: string): Promise<StoredComment[]> {
  const rows = await db.all('SELECT id, text, author, reply_to, created_at FROM sandbox_comments WHERE post_id = ? ORDER BY created_at, id', [postId]);
  return rows.map((row) => ({
    id: row.id as string,
    text: row.text as string,
    author: (row.author as string | null) ?? null,
    replyTo: (row.reply_to as string | null) ?? null,
    createdAt: Number(row.created_at),
  }));
}

/** A comment under a post of `platform`, with that post's ids; null when there is none. */
export async function findComment(db: SqlDriver, platform: string, commentId: string): Promise<{ id: string; postId: string; networkPostId: string; accountId: string } | null> {
  const row = await db.get(
    'SELECT c.id, c.post_id, p.network_id, p.account_id FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE c.id = ? AND p.platform = ? AND p.deleted_at IS NULL',
    [commentId, platform],
  );
  return row ? { id: row.id as string, postId: row.post_id as string, networkPostId: row.network_id as string, accountId: row.account_id as string } : null;
}

/** The account answers a comment (author null: the account itself). */
export async function addReply(db: SqlDriver, postId: string, text: string, replyTo: string, now: number): Promise<string> {
  const id = newId('sbc_');
  await db.run('INSERT INTO sandbox_comments (id, post_id, text, media, created_at, author, reply_to) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, postId, text, '[]', now, null, replyTo]);
  return id;
}

/**
 * A post's metrics under the network's own names, grown since the post was ready; a post of another account
 * gets zeros (only youtube shows those). `partial` drops the first metric and names it in `failed`.
 */
export function sandboxPostMetrics(rates: Record<string, number>, post: SandboxPost, now: number, fault: InsightsFault | undefined) {
  const metrics = grownMetrics(rates, post.readyAt, now);
  const failed = fault === 'partial' ? Object.keys(metrics).slice(0, 1) : [];
  for (const name of failed) delete metrics[name];
  return { metrics, failed };
}

/**
 * A youtube video's privacy (`public`, `unlisted` or `private`): from the uploaded resource (youtube-api.ts, which
 * defaults to `private` as YouTube does) or the generic API's `options` (`privacyStatus` or `visibility`, `public`
 * when unset). Only a public video is seen by other channels; an unlisted or private one only by its own channel.
 */
export function youtubePrivacyOf(post: SandboxPost): string {
  const record = post.record as { resource?: { status?: { privacyStatus?: unknown } }; options?: { privacyStatus?: unknown; visibility?: unknown } } | null;
  if (record?.resource) return typeof record.resource.status?.privacyStatus === 'string' ? record.resource.status.privacyStatus : 'private';
  const option = record?.options?.privacyStatus ?? record?.options?.visibility;
  return typeof option === 'string' ? option : 'public';
}

/** Whether `accountId` may see `post` on youtube: its own channel always, another one only when it is public. */
export function youtubeVisibleTo(post: SandboxPost, accountId: string): boolean {
  return post.accountId === accountId || youtubePrivacyOf(post) === 'public';
}
