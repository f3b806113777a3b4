/**
 * @module
 * The storage interface. SQLite (embedded default) implements it today; PostgreSQL implements the same
 * methods so several service instances can share one database. Times are epoch milliseconds.
 * Every method is async so both backends fit.
 */
import type { InstagramLinkMethod, Network } from '../../../src/protocol/index.js';

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

export interface NewLinkSession {
  id: string;
  tokenHash: string;
  accountId: string;
  profileId: string;
  origin: string | null;
  redirect: string | null;
  domain: string;
  allowedSocial: Network[] | null;
  instagramLinkMethod: InstagramLinkMethod | null;
  createdAt: number;
  expiresAt: number;
}

/** Result of committing a connection: `stored` only when the session was still usable inside the transaction. */
export type LinkAccountResult = { stored: true; account: SocialAccount } | { stored: false; reason: 'expired' | 'revoked' | 'missing' };

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
  listProfiles(accountId: string): Promise<Profile[]>;
  /** Deletes the profile with its linked accounts and revokes its open sessions. */
  deleteProfile(id: string, now: number): Promise<void>;

  createLinkSession(session: NewLinkSession): Promise<void>;
  findLinkSessionByTokenHash(tokenHash: string): Promise<LinkSessionRecord | null>;
  findLinkSession(accountId: string, sessionId: string): Promise<LinkSessionRecord | null>;
  /** Sets `revokedAt` once; later calls keep the first time. Returns the session, or null when unknown. */
  revokeLinkSession(accountId: string, sessionId: string, now: number): Promise<LinkSessionRecord | null>;

  /**
   * Stores (or replaces) the profile's account on a network and records the completion on the session,
   * in one transaction that first re-checks that the session is neither expired nor revoked.
   */
  linkAccount(sessionId: string, account: SocialAccount, now: number): Promise<LinkAccountResult>;
  listSocialAccounts(profileId: string): Promise<SocialAccount[]>;
  findSocialAccount(profileId: string, platform: Network): Promise<SocialAccount | null>;
  /** Returns true when an account was removed. */
  unlinkAccount(profileId: string, platform: Network): Promise<boolean>;
}
