/**
 * @module
 * What the service knows of one network, in one object: each `networks/<id>/index.ts` exports one, and
 * `NETWORKS` (index.ts) lists them, so a network missing a half does not compile.
 */
import type { NetworkOptionKey } from '@social-link-kit/protocol/publishing/post-request.js';
import type { Network } from '@social-link-kit/protocol';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import type { NetworkLink } from './link.js';
import type { PlatformPost, PublishAdapter } from './publish-adapter.js';

/** One published rate limit of a network. */
export interface NetworkBudget {
  /** Stable name, part of the database key. */
  name: string;
  scope: 'account' | 'app';
  limit: number;
  windowMs: number;
  /** What the limit is, for the error message. */
  describes: string;
  /** True for short windows: the service tries again itself once a unit frees up. */
  autoRetry: boolean;
}

/** Limits the protocol's capability table does not carry (it has text, media counts and sizes, durations). */
export interface NetworkLimits {
  /** Width / height bounds the network enforces on feed images (error 140). */
  imageAspectRatio?: { min: number; max: number; label: string };
  /** The network's published rate limits, counted in the database before the irreversible call. */
  rateBudgets?: readonly NetworkBudget[];
}

export interface NetworkModule {
  /** How an account is linked: OAuth, credentials or a bot. */
  link: NetworkLink;
  /**
   * The publish half. Its optional `analytics`, `accountAnalytics` and `comments` are the engagement half, where
   * the network has one (else analytics reads the sandbox's generic engagement routes, or answers 101).
   */
  publish: PublishAdapter;
  /**
   * The API bases: `real` with the version prefix (null where the account's tokens carry it: bluesky's PDS,
   * telegram's Bot API), `sandboxPath` on this service's own origin when the account lives on the sandbox.
   */
  api: { real: string | null; sandboxPath: string };
  /** Limits the protocol's capability table does not carry, true to the network's API documentation. */
  limits: NetworkLimits;
  /**
   * For a network that publishes a long text as a thread: the parts its adapter sends (previews show them). A
   * network without it sends one post.
   */
  threadParts?(post: PlatformPost): string[];
  /** The post request's field holding this network's options (`twitterOptions`, `linkedInOptions`…). */
  optionsKey: NetworkOptionKey;
  /**
   * For a network whose calls sign with the integrator's own app (twitter's OAuth 1.0a keys, sent with the request
   * and sealed with the post): the app a publish uses, from the stored request, and the app a read uses, when the
   * read has no request of its own. The generic pipeline (app-credentials.ts) passes them through without naming
   * the network.
   */
  appCredentials?: {
    /** The pair a request bound for this network carries (its headers); the network's refusal (419) when missing. */
    ofHeaders(header: (name: string) => string | undefined, action: string): AppCredentials;
    /** The stored request's fields that keep the pair, sealed to the profile. */
    sealedFields(cipher: TokenCipher, profileId: string, credentials: AppCredentials): Record<string, unknown>;
    ofRequest(cipher: TokenCipher, profileId: string, request: Record<string, unknown>): AppCredentials | null;
    latestOf(requests: StoredPostRequests, cipher: TokenCipher, profileId: string): Promise<AppCredentials | null>;
  };
}

/** The stored post requests a network may read (the app sealed with a post); publishing's store, handed over by the runtime. */
export interface StoredPostRequests {
  /** The requests of the profile's newest posts on `platform` (at most `limit`), newest first. */
  recentRequestsOn(profileId: string, platform: Network, limit: number): Promise<Record<string, unknown>[]>;
}

/** An integrator's own app on a network (twitter: API key and secret). */
export interface AppCredentials {
  apiKey: string;
  apiSecret: string;
}
