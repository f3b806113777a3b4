/**
 * @module
 * The storage interface, implemented once by `SqlStorage` over a driver per database (SQLite, the embedded
 * default, or PostgreSQL so several service instances can share one database). Times are epoch milliseconds.
 * Every method is async so both backends fit.
 */
import type { InstagramLinkMethod, Network } from '../../../../src/protocol/index.js';

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
}

/** What creating a session stores: its own fields (the rest of a record is derived or set later) and the token hash. */
export type NewLinkSession = Pick<
  LinkSessionRecord,
  'id' | 'accountId' | 'profileId' | 'origin' | 'redirect' | 'domain' | 'allowedSocial' | 'instagramLinkMethod' | 'createdAt' | 'expiresAt'
> & { tokenHash: string };

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
}

export type WebhookDeliveryOutcome =
  | { kind: 'delivered'; at: number }
  | { kind: 'retry'; nextAttemptAt: number; error: string }
  | { kind: 'failed'; at: number; error: string };

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
export type LinkAccountResult = { stored: true; account: SocialAccount } | { stored: false; reason: 'expired' | 'revoked' | 'missing' };

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

export interface Storage {
  readonly kind: 'sqlite' | 'postgres';
  migrate(): Promise<void>;
  close(): Promise<void>;

  countAccounts(): Promise<number>;
  createAccount(account: Account, primaryProfile: Profile): Promise<void>;
  updateAccount(id: string, changes: Partial<Omit<Account, 'id' | 'createdAt'>>): Promise<void>;
  addApiKey(accountId: string, keyHash: string, createdAt: number): Promise<void>;
  findAccountByApiKeyHash(keyHash: string): Promise<Account | null>;
  findAccount(id: string): Promise<Account | null>;

  createProfile(profile: Profile, profileKeyHash: string): Promise<void>;
  findPrimaryProfile(accountId: string): Promise<Profile | null>;
  findProfileByKeyHash(accountId: string, profileKeyHash: string): Promise<Profile | null>;
  findProfileById(id: string): Promise<Profile | null>;
  findProfileByRefId(refId: string): Promise<Profile | null>;
  listProfiles(accountId: string): Promise<Profile[]>;
  /**
   * Deletes the profile with its linked accounts and revokes its open sessions. Like `unlinkAccount`, the same
   * transaction adds an `unlink` event per removed account when the profile has a `social` webhook. The
   * profile's registrations are kept (the profile row is only marked deleted) so those last events can still
   * be delivered; nothing can reach them through the API any more.
   */
  deleteProfile(id: string, now: number): Promise<void>;

  createLinkSession(session: NewLinkSession): Promise<void>;
  findLinkSessionByTokenHash(tokenHash: string): Promise<LinkSessionRecord | null>;
  findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null>;
  /** Any session by id, legacy stand-ins included; for flows that already proved they belong to it. */
  findLinkSessionById(sessionId: string): Promise<LinkSessionRecord | null>;
  /** Sets `revokedAt` once; later calls keep the first time. Returns the session, or null when unknown. */
  revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null>;

  /**
   * Stores (or replaces) the profile's account on a network and records the completion on the session,
   * in one transaction that first re-checks that the session is neither expired nor revoked.
   * When the profile has a `social` webhook, the same transaction adds a `link` event to the outbox.
   */
  linkAccount(sessionId: string, account: SocialAccount, now: number): Promise<LinkAccountResult>;
  listSocialAccounts(profileId: string): Promise<SocialAccount[]>;
  findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null>;
  /**
   * Returns true when an account was removed. When one was and the profile has a `social` webhook, the same
   * transaction adds an `unlink` event to the outbox, stamped `now`.
   */
  unlinkAccount(profileId: string, platform: Network, now: number): Promise<boolean>;

  /** Stores a new attempt, not yet started (the popup has not opened the start URL). */
  createOAuthAttempt(attempt: OAuthAttempt): Promise<void>;
  /** Marks the ticket started, binds it to the browser and to a fresh state; null when unknown, expired or already started. */
  startOAuthAttempt(ticketHash: string, binding: { bindingHash: string; stateHash: string }, now: number): Promise<OAuthAttempt | null>;
  /** Marks the attempt used; null when unknown, expired, never started or already used (single use). */
  useOAuthAttempt(stateHash: string, now: number): Promise<OAuthAttempt | null>;
  /** The attempt by state, used or not (to answer a replayed callback). */
  findOAuthAttempt(stateHash: string): Promise<OAuthAttempt | null>;
  recordOAuthOutcome(stateHash: string, outcome: string): Promise<void>;

  createTelegramCode(code: TelegramCode): Promise<void>;
  /** Marks the code used; null when unknown, expired or used. */
  useTelegramCode(codeHash: string, now: number): Promise<TelegramCode | null>;

  /** Creates or replaces the profile's registration for `registration.action`. */
  putWebhook(registration: WebhookRegistration): Promise<void>;
  listWebhooks(profileId: string): Promise<WebhookRegistration[]>;
  /** Every registration that has a secret, across profiles (for sealing secrets stored before they were sealed). */
  listWebhooksWithSecrets(): Promise<WebhookRegistration[]>;
  /** Sets the stored secret to `to` only while it is still `from`; true when it did. */
  replaceWebhookSecretIfUnchanged(profileId: string, action: string, from: string, to: string): Promise<boolean>;
  /** Returns true when a registration was removed. Pending deliveries for it are dropped at delivery time. */
  deleteWebhook(profileId: string, action: string): Promise<boolean>;
  /**
   * Claims up to `limit` outbox rows that are due and not leased, leasing them until `leaseUntil` and counting
   * the attempt. A row whose registration is gone is marked failed instead of being returned. Safe with several
   * workers (SQLite: one immediate transaction; PostgreSQL: FOR UPDATE SKIP LOCKED).
   */
  claimWebhookDeliveries(now: number, leaseUntil: number, limit: number): Promise<WebhookDelivery[]>;
  finishWebhookDelivery(id: string, outcome: WebhookDeliveryOutcome): Promise<void>;
  listWebhookDeliveries(profileId: string): Promise<WebhookDeliveryStatus[]>;
  /**
   * Deletes outbox rows delivered or failed before `finishedBefore`; rows still pending are never deleted.
   * Returns how many were deleted.
   */
  pruneWebhookOutbox(finishedBefore: number): Promise<number>;
  /**
   * Deletes the webhook registrations (and so their sealed secrets) of deleted profiles once none of their
   * events is still pending. Returns how many were deleted.
   */
  removeWebhooksOfDeletedProfiles(): Promise<number>;

  /**
   * The stand-in session of a verified legacy JWT (found by `tokenHash`), created on first use. Concurrent first
   * uses get the same row.
   */
  findOrCreateLegacyLinkSession(session: NewLinkSession): Promise<LinkSessionRecord>;
  findIntegrationKey(accountId: string, kind: IntegrationKey['kind']): Promise<IntegrationKey | null>;
  /** Creates or replaces the key of that kind. */
  putIntegrationKey(key: IntegrationKey): Promise<void>;
  /** Inserts the key unless one of that kind exists; returns the key in effect. */
  addIntegrationKeyIfMissing(key: IntegrationKey): Promise<IntegrationKey>;
  /**
   * Replaces the key of that kind only while its sealed private value is still `sealedPrivateKeyNow`; returns the
   * key in effect afterwards (null if it was deleted meanwhile).
   */
  replaceIntegrationKeyIfUnchanged(key: IntegrationKey, sealedPrivateKeyNow: string | null): Promise<IntegrationKey | null>;
  /** The integration reset: removes both keys and revokes every legacy link session of the account. */
  resetIntegrationKeys(accountId: string, now: number): Promise<void>;
}
