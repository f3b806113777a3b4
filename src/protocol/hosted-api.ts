/**
 * @module
 * The answers of `/api/link/*`, which the hosted linking page calls with the link token. The service builds them
 * and the hosted page validates every one it receives. Errors are the usual envelope (./errors.ts).
 *
 * Written with `zod/mini` (the same schemas, functions instead of methods) so the hosted page stays well inside its
 * bundle budget: full zod alone would take most of it. The server uses them as it uses the others.
 */
import { z } from 'zod/mini';
import { CONNECT_METHODS, INSTAGRAM_LINK_METHODS, NETWORKS } from './networks/catalog.js';

const Network = z.enum(NETWORKS);
const isoDate = z.iso.datetime({ offset: true });
const success = z.literal('success');
/** What every connect and disconnect answer starts with: it succeeded, for this network. */
const networkAnswer = { status: success, platform: Network };

/** One network of the session view: enough to render its row, nothing about other profiles. */
export const SessionViewNetwork = z.object({
  platform: Network,
  method: z.enum(CONNECT_METHODS),
  linked: z.boolean(),
  displayName: z.nullable(z.string()),
  username: z.nullable(z.string()),
  /** True when this network is the embedded sandbox: the page says no real account is connected. */
  sandbox: z.optional(z.boolean()),
  /** The linked account's health when it is not healthy (account-health.ts): the page says why it needs attention. */
  attention: z.optional(z.enum(['degraded', 'needs_relink', 'revoked'])),
  /** The network's own status when it is not operational (GET /networks/status): degraded warns, down explains. */
  networkStatus: z.optional(z.enum(['degraded', 'down'])),
  /** False when the network cannot be connected on this service (no credentials, sandbox off): the page says so. */
  available: z.optional(z.literal(false)),
});
export type SessionViewNetwork = z.infer<typeof SessionViewNetwork>;

/** `GET /api/link/session`. */
export const SessionView = z.object({
  status: success,
  sessionId: z.string(),
  title: z.string(),
  expiresAt: isoDate,
  /** Server time, so the countdown does not depend on the device clock. */
  serverTime: isoDate,
  origin: z.nullable(z.string()),
  redirect: z.nullable(z.string()),
  instagramLinkMethod: z.enum(INSTAGRAM_LINK_METHODS),
  networks: z.array(SessionViewNetwork),
  completedNetworks: z.array(Network),
  /** Whether the widget may show the page, in a frame or its popup (the widget needs the max-pack add-on, spec 5.3, 5.7). */
  embeddable: z.optional(z.boolean()),
  /** The locale the session asked for (the page falls back to the browser's languages). */
  locale: z.optional(z.nullable(z.string())),
  /** The integrator's branding (../branding.ts), checked again by the page before use. */
  branding: z.optional(z.nullable(z.object({ name: z.optional(z.string()), logoUrl: z.optional(z.string()), color: z.optional(z.string()) }))),
});
export type SessionView = z.infer<typeof SessionView>;

export { INLINE_SESSION_VIEW_ID } from './constants.js';

/** `POST /api/link/connect/:platform` for an `oauth` network: the address the sign-in popup opens. */
export const StartConnectResponse = z.object({
  ...networkAnswer,
  /** True when the network is the embedded sandbox, not the real one. */
  sandbox: z.boolean(),
  startUrl: z.url(),
});
export type StartConnectResponse = z.infer<typeof StartConnectResponse>;

/** Body of `POST /api/link/connect/:platform` for a `credentials` network. */
export const CredentialsConnectRequest = z.object({ handle: z.string(), appPassword: z.string() });
export type CredentialsConnectRequest = z.infer<typeof CredentialsConnectRequest>;

/** `POST /api/link/connect/:platform` for a `credentials` network: the account is stored. */
export const CredentialsConnectResponse = z.object({ ...networkAnswer, displayName: z.string() });
export type CredentialsConnectResponse = z.infer<typeof CredentialsConnectResponse>;

/** `POST /api/link/connect/:platform` for a `bot` network: the code the user sends to the bot, which completes the link. */
export const BotCodeResponse = z.object({ ...networkAnswer, code: z.string(), botUsername: z.string(), deepLink: z.url(), expiresAt: isoDate });
export type BotCodeResponse = z.infer<typeof BotCodeResponse>;

/** `DELETE /api/link/accounts/:platform`. */
export const DisconnectResponse = z.object({ ...networkAnswer, removed: z.boolean() });
export type DisconnectResponse = z.infer<typeof DisconnectResponse>;

/** The fields of the error envelope (./errors.ts) the hosted page shows. */
export const LinkApiErrorFields = z.object({ code: z.int(), message: z.string() });
