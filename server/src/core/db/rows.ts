/**
 * @module
 * Rows to records, shared by both storage backends: each returns times as epoch ms, booleans from 0/1 integers,
 * and arrays from JSON text, so the two schemas keep the same column types.
 */
import type { Network } from '@social-link-kit/protocol';
import type {
  Account,
  IntegrationKey,
  LinkSessionRecord,
  OAuthAttempt,
  Profile,
  SocialAccount,
  TelegramCode,
  WebhookRegistration,
} from './storage-types.js';

export type Row = Record<string, unknown>;

export function toAccount(row: Row): Account {
  return {
    id: row.id as string,
    name: row.name as string,
    plan: row.plan as Account['plan'],
    maxPack: row.max_pack === 1,
    domains: JSON.parse(row.domains as string) as string[],
    allowedOrigins: JSON.parse(row.allowed_origins as string) as string[],
    instagramLinkMethod: row.instagram_link_method as Account['instagramLinkMethod'],
    createdAt: row.created_at as number,
  };
}

export function toProfile(row: Row): Profile {
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    refId: row.ref_id as string,
    title: row.title as string,
    isPrimary: row.is_primary === 1,
    createdAt: row.created_at as number,
  };
}

/**
 * A session from its rows of `link_sessions s LEFT JOIN link_session_completions c` (linking/store.ts): one row per
 * completed network, or one row with null completion columns when there is none; null for no rows. Completions
 * come in completion order (then by network), with the first and the last completion time.
 */
export function toSession(rows: Row[]): LinkSessionRecord | null {
  const row = rows[0];
  if (!row) return null;
  const completions = rows
    .filter((completion) => completion.completion_platform !== null)
    .map((completion) => ({
      platform: completion.completion_platform as Network,
      first: completion.completion_first as number,
      last: completion.completion_last as number,
    }))
    .sort((a, b) => a.first - b.first || (a.platform < b.platform ? -1 : a.platform > b.platform ? 1 : 0));
  return {
    id: row.id as string,
    accountId: row.account_id as string,
    profileId: row.profile_id as string,
    origin: (row.origin as string | null) ?? null,
    redirect: (row.redirect as string | null) ?? null,
    domain: row.domain as string,
    allowedSocial: row.allowed_social ? (JSON.parse(row.allowed_social as string) as Network[]) : null,
    instagramLinkMethod: (row.instagram_link_method as LinkSessionRecord['instagramLinkMethod']) ?? null,
    locale: (row.locale as LinkSessionRecord['locale'] | undefined) ?? null,
    createdAt: row.created_at as number,
    expiresAt: row.expires_at as number,
    revokedAt: (row.revoked_at as number | null) ?? null,
    completedNetworks: completions.map((completion) => completion.platform),
    completedAt: completions.length === 0 ? null : Math.min(...completions.map((completion) => completion.first)),
    lastCompletedAt: completions.length === 0 ? null : Math.max(...completions.map((completion) => completion.last)),
    legacy: row.kind === 'legacy',
  };
}

export function toWebhook(row: Row): WebhookRegistration {
  return {
    profileId: row.profile_id as string,
    action: row.action as string,
    url: row.url as string,
    sealedSecret: (row.secret as string | null) ?? null,
    createdAt: row.created_at as number,
  };
}

export function toIntegrationKey(row: Row): IntegrationKey {
  return {
    accountId: row.account_id as string,
    kind: row.kind as IntegrationKey['kind'],
    algorithm: row.algorithm as string,
    publicJwk: JSON.parse(row.public_jwk as string) as Record<string, unknown>,
    sealedPrivateKey: (row.private_jwk as string | null) ?? null,
    createdAt: row.created_at as number,
  };
}

export function integrationKeyValues(key: IntegrationKey): [string, string, string, string, string | null, number] {
  return [
    key.accountId,
    key.kind,
    key.algorithm,
    JSON.stringify(key.publicJwk),
    key.sealedPrivateKey,
    key.createdAt,
  ];
}

export function toSocialAccount(row: Row): SocialAccount {
  return {
    profileId: row.profile_id as string,
    platform: row.platform as Network,
    networkUserId: row.network_user_id as string,
    displayName: (row.display_name as string | null) ?? null,
    username: (row.username as string | null) ?? null,
    tokensEncrypted: (row.tokens_encrypted as string | null) ?? null,
    linkedAt: row.linked_at as number,
    accountType: (row.account_type as string | null) ?? null,
    sandbox: row.sandbox === null || row.sandbox === undefined ? null : Number(row.sandbox) === 1,
  };
}

export function toOAuthAttempt(row: Row): OAuthAttempt {
  return {
    ticketHash: row.ticket_hash as string,
    stateHash: (row.state_hash as string | null) ?? null,
    sessionId: row.session_id as string,
    platform: row.platform as Network,
    codeVerifier: row.code_verifier as string,
    bindingHash: (row.binding_hash as string | null) ?? null,
    createdAt: row.created_at as number,
    expiresAt: row.expires_at as number,
    startedAt: (row.started_at as number | null) ?? null,
    usedAt: (row.used_at as number | null) ?? null,
    outcome: (row.outcome as string | null) ?? null,
  };
}

export function toTelegramCode(row: Row): TelegramCode {
  return {
    codeHash: row.code_hash as string,
    sessionId: row.session_id as string,
    createdAt: row.created_at as number,
    expiresAt: row.expires_at as number,
    usedAt: row.used_at as number,
  };
}

/** An outbox row joined with its registration, just claimed: `attempts` counts the attempt about to be made. */
/** What deleteProfile reads back from each social_accounts row it deletes, to report it as unlinked. */
export interface RemovedAccount {
  platform: Network;
  display_name: string | null;
  linked_at: number;
}

/** Oldest link first (then by platform), so the `unlink` events of a deleted profile come in a stable order. */
export function inLinkOrder(accounts: RemovedAccount[]): RemovedAccount[] {
  return [...accounts].sort((a, b) => a.linked_at - b.linked_at || a.platform.localeCompare(b.platform));
}
