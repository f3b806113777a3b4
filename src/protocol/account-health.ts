/**
 * @module
 * Account health: what the service knows of each linked account's access (README "Account health"), on
 * `GET /user` (`health` per network), `GET /profiles/health`, and the `social` webhook's account events.
 * - `healthy`: the last check or renewal worked;
 * - `degraded`: the network failed transiently (5xx, timeout, 429); the service keeps retrying with backoff and the
 *   account stays linked (publishing still tries);
 * - `needs_relink`: the network refused the grant for good (invalid_grant, missing scope): only the user linking the
 *   account again helps;
 * - `revoked`: the network no longer accepts the account's token at all (the user removed the app); link again.
 */
import { z } from 'zod';
import { Network } from './networks.js';

export const ACCOUNT_HEALTH_STATUSES = ['healthy', 'degraded', 'needs_relink', 'revoked'] as const;
export const AccountHealthStatus = z.enum(ACCOUNT_HEALTH_STATUSES);
export type AccountHealthStatus = z.infer<typeof AccountHealthStatus>;

/** Machine codes of `lastError.code` and of an event's `reason`. */
export const ACCOUNT_PROBLEM_CODES = ['invalid_grant', 'revoked', 'missing_scope', 'unavailable', 'rate_limited', 'expiring'] as const;
export const AccountProblemCode = z.enum(ACCOUNT_PROBLEM_CODES);
export type AccountProblemCode = z.infer<typeof AccountProblemCode>;

export const AccountHealthError = z.object({ code: AccountProblemCode, message: z.string(), at: z.string() });
export type AccountHealthError = z.infer<typeof AccountHealthError>;

export const AccountHealth = z.object({
  platform: Network,
  status: AccountHealthStatus,
  /** Last successful renewal or identity check. */
  lastRefreshedAt: z.string().nullable(),
  /** When the service will renew or check the account next (null: nothing to do until it is linked again). */
  nextRefreshAt: z.string().nullable(),
  /** When the current access token ends, where the network says. */
  tokenExpiresAt: z.string().nullable(),
  lastError: AccountHealthError.nullable(),
  /** Scopes the network granted (null: it did not say) and the ones publishing needs; `missing` = needed, not granted. */
  scopes: z.object({ granted: z.array(z.string()).nullable(), needed: z.array(z.string()), missing: z.array(z.string()) }),
});
export type AccountHealth = z.infer<typeof AccountHealth>;

/** `GET /profiles/health`: every linked account of the profile with its health. */
export const ProfileHealthResponse = z.object({
  status: z.literal('success'),
  refId: z.string(),
  accounts: z.array(AccountHealth),
});
export type ProfileHealthResponse = z.infer<typeof ProfileHealthResponse>;

const accountEventBase = {
  /** Stable across retries (also `X-Webhook-Id`). */
  id: z.string(),
  action: z.literal('social'),
  platform: Network,
  refId: z.string(),
  title: z.string(),
  created: z.string(),
};

/**
 * A known expiry is near and the service cannot renew it by itself: the user must link again before `expiresAt`.
 * Either a long-lived access token the service cannot renew, or a refresh token's end (tiktok, linkedin: 365 days
 * after consent; renewals do not move it), sent even while the account is healthy. Once per expiry.
 */
export const AccountExpiringPayload = z.object({
  ...accountEventBase,
  event: z.literal('account.expiring'),
  expiresAt: z.string(),
});

/** The call that makes a fresh link session for one network (the integrator's own API key makes it). */
export const AccountRelinkCall = z.object({ method: z.literal('POST'), path: z.literal('/api/profiles/link-sessions'), body: z.object({ relink: Network }) });
export type AccountRelinkCall = z.infer<typeof AccountRelinkCall>;

/**
 * Once per problem: the account cannot publish until the user links it again. `relink.url` is a fresh link session
 * for that network (as Plaid's update mode), made for each delivery attempt when it is sent and never stored: a
 * linking URL is a password, so the outbox and the delivery log keep the event without it. It lives until
 * `relink.expiresAt`; `relink` also names the call that makes another one.
 */
export const AccountNeedsRelinkPayload = z.object({
  ...accountEventBase,
  event: z.literal('account.needs_relink'),
  status: z.enum(['needs_relink', 'revoked']),
  reason: AccountProblemCode,
  message: z.string(),
  relink: AccountRelinkCall.extend({ url: z.string(), expiresAt: z.string() }),
});

/** The problem cleared: after a relink (`relinked`) or when a transient failure stopped (`transient_cleared`). */
export const AccountRecoveredPayload = z.object({
  ...accountEventBase,
  event: z.literal('account.recovered'),
  after: z.enum(['relinked', 'transient_cleared']),
});

export const AccountHealthWebhookPayload = z.discriminatedUnion('event', [AccountExpiringPayload, AccountNeedsRelinkPayload, AccountRecoveredPayload]);
export type AccountHealthWebhookPayload = z.infer<typeof AccountHealthWebhookPayload>;

/**
 * `scheduled` action, before a scheduled post is due (pre-flight): one of its accounts cannot publish as it stands.
 * Sent once per post and network.
 */
export const PreflightWarningPayload = z.object({
  id: z.string(),
  action: z.literal('scheduled'),
  event: z.literal('preflight.warning'),
  postId: z.string(),
  platform: Network,
  refId: z.string(),
  title: z.string(),
  scheduleDate: z.string(),
  accountStatus: AccountHealthStatus,
  reason: AccountProblemCode,
  message: z.string(),
  created: z.string(),
});
export type PreflightWarningPayload = z.infer<typeof PreflightWarningPayload>;

export const NETWORK_STATUSES = ['operational', 'degraded', 'down'] as const;
export const NetworkStatusValue = z.enum(NETWORK_STATUSES);

/**
 * `GET /networks/status`: each network's state from its recent connect and publish outcomes (failures the network
 * caused: 5xx, timeouts, its own outages), or the operator's override. `degraded`: linking and publishing work but
 * fail more than usual; `down`: most attempts fail.
 */
export const NetworkStatusResponse = z.object({
  status: z.literal('success'),
  networks: z.array(
    z.object({
      platform: Network,
      status: NetworkStatusValue,
      source: z.enum(['observed', 'operator']),
      message: z.string().nullable(),
      /** The outcomes counted (last 30 minutes) and how many failed because of the network. */
      recent: z.object({ outcomes: z.number(), failures: z.number() }),
    }),
  ),
});
export type NetworkStatusResponse = z.infer<typeof NetworkStatusResponse>;

/** `PUT /admin/api/network-status/{platform}`: the operator's word on a network, over the observed figures. */
export const AdminNetworkStatusRequest = z.strictObject({
  status: NetworkStatusValue,
  /** Shown on the hosted page and to integrators with the status. */
  message: z.string().max(500).nullable().optional(),
});
export type AdminNetworkStatusRequest = z.infer<typeof AdminNetworkStatusRequest>;
