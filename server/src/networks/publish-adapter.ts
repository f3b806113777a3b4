/**
 * @module
 * The contract every network's publishing adapter (`networks/<id>/publish.ts`) fulfils. The same adapter code runs
 * against the network's sandbox on loopback and, with credentials configured, against the network itself: only
 * `ctx.baseUrl` differs.
 *
 * A platform attempt runs prepare → commit → confirm. `commit` is the ONE irreversible call and runs at most once
 * per attempt: the engine records "commit started" before calling it and the result after. When a crash leaves a
 * started commit without a recorded result, the engine calls `reconcile` (never `commit` again), which looks on the
 * network for the post the interrupted commit may have made.
 */
import type { Network } from '@social-link-kit/protocol';
import type { RateBudget } from '../core/rate-budget.js';
import type { AnalyticsAdapter, NetworkComment } from './analytics-contract.js';
import type { ResolvedOAuthNetwork } from './oauth/resolved.js';

/** Error classification in the spec's terms (section 7). */
export interface PublishFailure {
  kind: 'failed';
  /** The spec's error code, e.g. 137 (duplicate), 272 (twitter auth), 435 (instagram daily limit). */
  code: number;
  message: string;
  /** True when retrying the same request later can succeed (5xx, timeouts, rate limits). */
  retryAvailable: boolean;
  /** True when the user must link the account again (revoked or expired token). */
  relink: boolean;
  /** When the network asked to wait (Retry-After), in milliseconds. */
  retryAfterMs?: number;
  /** The user may retry, but the service must not on its own (the adapter already waited: instagram 258, 435). */
  noAutoRetry?: boolean;
  /** The network's crawler could not download a media URL (robots.txt, 403 at the host): the engine re-hosts, then 479. */
  mediaFetchBlocked?: boolean;
  /** No answer came, but the request may have reached the network (uncertain-call.ts): a commit is decided by looking. */
  mayHaveArrived?: boolean;
  details?: Record<string, unknown>;
}

export interface PublishDone {
  kind: 'done';
  /** The network's post id. */
  id: string;
  postUrl: string;
  warnings?: { feature: string; code: number }[];
}

/** The network accepted the post but finishes it later (tiktok processing, instagram containers). */
export interface PublishPending {
  kind: 'pending';
  /** Adapter state kept with the attempt (JSON), read again by `confirm`. */
  state: Record<string, unknown>;
  /** When `confirm` should look next, in milliseconds from now. */
  checkAfterMs: number;
}

export type CommitResult = PublishDone | PublishPending | PublishFailure;

/** What `prepare` produced (uploaded blobs, containers, upload sessions); kept with the attempt as JSON. */
export type PreparedState = Record<string, unknown>;

/**
 * `prepare`'s answer while the network still works on what prepare made (instagram and threads containers): the
 * engine keeps `state` as the prepared state and calls `prepare` again with it after `checkAfterMs`.
 */
export interface PrepareWaiting {
  kind: 'waiting';
  state: PreparedState;
  checkAfterMs: number;
}

/** One platform's share of a post, after the request was resolved (per-platform text, media and options). */
export interface PlatformPost {
  platform: Network;
  /** Final text for this platform, with rich text and line breaks already mapped. */
  text: string;
  /** Media URLs for this platform (already checked and, where needed, converted). */
  mediaUrls: string[];
  isVideo: boolean;
  /** The network's option object of the request (e.g. `instagramOptions`), as given. */
  options: Record<string, unknown>;
  /** The service's post id; adapters that can choose a record key derive it from this (bluesky). */
  postId: string;
  /** Stable per post and platform: lets `reconcile` find what an interrupted commit created. */
  attemptKey: string;
}

/** The linked account the post goes to, with its tokens opened only when an adapter asks for them. */
export interface LinkedAccountRef {
  platform: Network;
  /** The network's account id. */
  accountId: string;
  username: string | null;
  displayName: string | null;
  /** True for an account linked through the sandbox network. */
  sandbox: boolean;
  /** Decrypts the stored provider tokens (access token, refresh token, PDS session, bot chat id…). */
  tokens(): Promise<Record<string, unknown>>;
  /**
   * Stores tokens an adapter refreshed (sealed like a link's). Networks that rotate refresh tokens (bluesky) need
   * it: without it the refreshed session works for this attempt only and the next one finds a spent refresh token.
   * Never called with an empty refresh token.
   */
  saveTokens?(tokens: Record<string, unknown>): Promise<void>;
  /**
   * After the network rejected the access token: renews the tokens once (token-refresher.ts, rotation-safe) and
   * says whether new ones are in place. The engine calls it; adapters need not.
   */
  refreshAfterRejection?(): Promise<boolean | PublishFailure>;
}

/** What a token refresh needs: the network's OAuth client and endpoints, the stored refresh token, the guarded fetch. */
export interface RefreshContext {
  network: ResolvedOAuthNetwork;
  /** The stored refresh token; for Meta's long-lived tokens, the access token itself (`renewalCredentialOf`). */
  refreshToken: string;
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

export interface RefreshedTokens {
  accessToken: string;
  /** The rotated refresh token; null when the network keeps the old one valid (google). */
  refreshToken: string | null;
  expiresIn: number | null;
  /** Seconds the refresh token has left, when the answer says (tiktok, linkedin); null keeps the stored end. */
  refreshExpiresIn: number | null;
  scope: string | null;
}

/** `rejected`: the network refused the refresh token (invalid_grant): only linking again helps. */
export type RefreshOutcome =
  | { kind: 'refreshed'; tokens: RefreshedTokens }
  | { kind: 'rejected'; message: string }
  // `failure`: how the network wants a refresh outage reported (gmb 519); a generic 503 otherwise.
  | { kind: 'unavailable'; message: string; failure?: PublishFailure };

export interface PublishContext {
  post: PlatformPost;
  account: LinkedAccountRef;
  /** The network's API base URL: the sandbox on loopback, or the real network. */
  baseUrl: string;
  /** Every outbound request goes through this (SSRF rules, time limits); never global fetch. */
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** The service clock, in epoch milliseconds. */
  now(): number;
  /** Token-free log sink. */
  log(event: string, fields?: Record<string, unknown>): void;
  /** Budgets shared by every instance through the database (instagram's 50 posts per 24 h). */
  rateBudget?: RateBudget;
  /**
   * Set for `reconcile` only: when the interrupted commit was marked as started (service clock). A post the
   * network made before it cannot be this commit's, so reconcile pages back to it and no further.
   */
  commitStartedAt?: number;
  /**
   * Stores progress inside the one commit (a thread's part ids as each part goes out), durably, before the next
   * irreversible call: reconcile and a resumed commit read it back as the prepared state.
   */
  saveProgress?(state: PreparedState): Promise<void>;
  /** Test builds stop the process here (PUBLISH_TEST_CRASH_AT) to prove crash safety between irreversible calls. */
  step?(point: 'between-thread-parts'): void;
  /** Set for `reconcile` only: whether another post of this service already recorded this network post id. */
  isClaimed?(networkPostId: string): Promise<boolean>;
  /** The integrator's own app credentials sent with the request (twitter's OAuth 1.0a key and secret), opened on demand. */
  appCredentials?(): Promise<{ apiKey: string; apiSecret: string } | null>;
}

/** Analytics, comments and replies are optional (analytics-contract.ts). */
export interface PublishAdapter extends AnalyticsAdapter {
  readonly platform: Network;
  /** Pure checks at create time (text length in the network's unit, media counts, option rules). Empty = valid. */
  validate(post: PlatformPost, account: LinkedAccountRef): PublishFailure[];
  /** Idempotent work before the irreversible call: upload media, create containers. Safe to run again. */
  prepare(ctx: PublishContext, prepared: PreparedState | null): Promise<PreparedState | PublishFailure | PrepareWaiting>;
  /** The one irreversible call. */
  commit(ctx: PublishContext, prepared: PreparedState): Promise<CommitResult>;
  /** Read-only: has a pending post finished? */
  confirm(ctx: PublishContext, state: Record<string, unknown>): Promise<CommitResult>;
  /**
   * After a crash between commit and its record: find the post the commit may have made. `null` means the
   * network has no such post (so the commit did not happen and may run once more). A `PublishFailure` means the
   * network cannot tell (telegram has no lookup of sent messages): the engine records it and never commits again.
   */
  reconcile(ctx: PublishContext, prepared: PreparedState): Promise<PublishDone | PublishPending | PublishFailure | null>;
  /** Delete a published post on the network; `false` when the network cannot delete. */
  remove?(ctx: PublishContext, networkPostId: string): Promise<boolean>;
  /** Post a comment under a published post (first comment). */
  comment?(ctx: PublishContext, networkPostId: string, text: string, mediaUrls: string[]): Promise<CommitResult>;
  /**
   * The account's own comments directly under the post, made since `since` (epoch ms): where the network lists them
   * apart from the audience's (threads' `/replies`), the look-up of an interrupted first comment reads these instead
   * of `comments`, so an audience comment with equal text is never taken for ours.
   */
  ownComments?(ctx: PublishContext, networkPostId: string, since: number): Promise<NetworkComment[] | PublishFailure>;
  /**
   * For networks whose access tokens expire: trades the refresh token for new tokens. Called only by
   * token-refresher.ts, which makes sure one caller at a time does it and stores the result before anyone uses it.
   */
  refresh?(ctx: RefreshContext): Promise<RefreshOutcome>;
}
