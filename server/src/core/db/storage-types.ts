/**
 * @module
 * The stored records, as the per-feature stores (accounts/store.ts, linking/store.ts, webhooks/store.ts,
 * linking/legacy-jwt/store.ts) read and write them on either database. Times are epoch milliseconds.
 */
import type { InstagramLinkMethod, Locale, Network } from '@social-link-kit/protocol';

export type Plan = 'free' | 'premium' | 'launch' | 'business' | 'enterprise';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  /** The max-pack add-on: needed for `expiresIn`. */
  maxPack: boolean;
  /** Linking domains; the first one is the default. */
  domains: string[];
  /** Session origins this account may use. Empty means any https (or loopback) origin and any app scheme. */
  allowedOrigins: string[];
  instagramLinkMethod: InstagramLinkMethod;
  createdAt: number;
}

export interface Profile {
  id: string;
  accountId: string;
  refId: string;
  title: string;
  isPrimary: boolean;
  createdAt: number;
}

export interface LinkSessionRecord {
  id: string;
  accountId: string;
  profileId: string;
  origin: string | null;
  redirect: string | null;
  domain: string;
  allowedSocial: Network[] | null;
  instagramLinkMethod: InstagramLinkMethod | null;
  /** The hosted page's language, when the integrator chose one. */
  locale: Locale | null;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
  /** Derived from the completions table, in completion order; never a read-modify-write column. */
  completedNetworks: Network[];
  completedAt: number | null;
  lastCompletedAt: number | null;
  /** True for the stand-in session of a legacy JWT link: never readable or revocable through the API. */
  legacy: boolean;
}

export interface SocialAccount {
  profileId: string;
  platform: Network;
  /** The account's id on the network. */
  networkUserId: string;
  displayName: string | null;
  username: string | null;
  /** Encrypted token material (AES-256-GCM envelope), never plaintext. */
  tokensEncrypted: string | null;
  linkedAt: number;
  /** The kind of account the network reported (instagram `PERSONAL`, `BUSINESS`, `MEDIA_CREATOR`); null when unknown. */
  accountType?: string | null;
  /** Where it was linked: true on the sandbox, false on the real network; null for accounts linked before this was kept. */
  sandbox?: boolean | null;
}

/** What creating a session stores: its own fields (the rest of a record is derived or set later) and the token hash. */
export type NewLinkSession = Pick<
  LinkSessionRecord,
  'id' | 'accountId' | 'profileId' | 'origin' | 'redirect' | 'domain' | 'allowedSocial' | 'instagramLinkMethod' | 'createdAt' | 'expiresAt'
> & { tokenHash: string; locale?: Locale | null };

/** A webhook registration (spec 2.5); one per (profile, action). */
export interface WebhookRegistration {
  profileId: string;
  action: string;
  url: string;
  /** The signing secret sealed with the token cipher (webhooks/webhook-secret.ts); column `secret`. */
  sealedSecret: string | null;
  createdAt: number;
}

/** An outbox row claimed for delivery, joined with the profile's current registration for its action. */
export interface WebhookDelivery {
  id: string;
  profileId: string;
  action: string;
  /** The exact JSON body to send (and sign). */
  payload: string;
  url: string;
  /** As in the registration: sealed, opened by the worker for each attempt. */
  sealedSecret: string | null;
  /** Attempts so far, including this one. */
  attempts: number;
  createdAt: number;
  /** The jobs engine's lease token of this claim: finishing names it, so a worker whose lease ran out changes nothing. */
  leaseToken: string;
}

export type WebhookDeliveryOutcome =
  | { kind: 'delivered'; at: number }
  | { kind: 'retry'; nextAttemptAt: number; error: string }
  | { kind: 'failed'; at: number; error: string };

/** One attempt of a delivery, as the delivery log keeps it. */
export interface WebhookAttempt {
  /** 1 for the first attempt; a redelivery continues the count. */
  attempt: number;
  at: number;
  /** The receiver's HTTP status, or null when it gave none (refused, timed out, unreachable). */
  responseStatus: number | null;
  error: string | null;
}

/** State of one outbox row, for operators and tests. */
export interface WebhookDeliveryStatus {
  id: string;
  action: string;
  payload: string;
  attempts: number;
  nextAttemptAt: number;
  deliveredAt: number | null;
  failedAt: number | null;
  lastError: string | null;
}

/** A key that verifies legacy JWT links of an account: the integrator's own, or the service's (generateJWT). */
export interface IntegrationKey {
  accountId: string;
  kind: 'integrator' | 'service';
  /** JWS algorithm the key is used with: RS256, ES256 or EdDSA. */
  algorithm: string;
  publicJwk: Record<string, unknown>;
  /**
   * Only for kind 'service': the private JWK sealed with the token cipher (core/crypto/token-cipher.ts), so a
   * database dump alone cannot sign links. Stored in the `private_jwk` column.
   */
  sealedPrivateKey: string | null;
  createdAt: number;
}

/** Result of committing a connection: `stored` only when the session was still usable inside the transaction. */
export type LinkAccountResult = { stored: true; account: SocialAccount } | { stored: false; reason: 'expired' | 'revoked' | 'missing' | 'suspended' };

/** One OAuth connection attempt: created when the user clicks Connect, used once by the callback. */
export interface OAuthAttempt {
  /** SHA-256 of the one-time ticket in the start URL the popup opens. */
  ticketHash: string;
  /** SHA-256 of the `state` sent to the network; set when the popup opens the start URL. */
  stateHash: string | null;
  sessionId: string;
  platform: Network;
  /** PKCE verifier (RFC 7636); secret, lives at most `expiresAt`. */
  codeVerifier: string;
  /** SHA-256 of the browser-binding cookie, set when the start URL is opened. */
  bindingHash: string | null;
  createdAt: number;
  expiresAt: number;
  startedAt: number | null;
  usedAt: number | null;
  /** What the callback showed (JSON), kept so a replay of the same callback shows it again. */
  outcome: string | null;
}

export interface TelegramCode {
  codeHash: string;
  sessionId: string;
  createdAt: number;
  expiresAt: number;
  usedAt: number | null;
}
