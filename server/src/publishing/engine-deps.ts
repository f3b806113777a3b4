/**
 * @module
 * What the publishing engine is built from (its parts take these too: publish-context.ts, lease-held-call.ts,
 * first-comment-job.ts), apart from the engine so its parts do not import the engine back.
 */
import type { Network } from '@social-link-kit/protocol';
import type { JobStore } from '../core/jobs/job-store.js';
import type { PublishAdapter } from '../networks/publish-adapter.js';
import type { NetworkContextDeps } from '../analytics/network-context.js';
import type { PostStore } from './post-store.js';
import type { MediaDeps } from './media/inspect-media.js';
import type { AttemptLog } from './attempt-log.js';

/** Steps at which a test build may stop the process (PUBLISH_TEST_CRASH_AT), to prove crash safety. */
export type CrashPoint = 'after-prepare' | 'after-commit-started' | 'after-commit' | 'between-thread-parts' | 'inside-first-comment';

/**
 * The network runtime's account context (network-runtime.ts: storage, tokens, clock, guarded fetch, the one token
 * refresher), with publishing's API base per account and the engine's own parts.
 */
export interface EngineDeps extends NetworkContextDeps {
  /** The API base a post is published to (sandbox or real); null when the network cannot be called here. */
  publishBaseUrl(platform: Network, sandbox: boolean): string | null;
  store: PostStore;
  jobs: JobStore;
  adapters: Record<Network, PublishAdapter>;
  /** How long a job lease lasts: a commit extends it by this much as it starts (the worker renews it meanwhile). */
  leaseMs?: number;
  /**
   * The longest a network call may wait for its answer (the outbound time limit, with a margin): a takeover sends
   * again only once an interrupted send is past it (lease-held-call.ts). Absent: no wait.
   */
  callDeadlineMs?: number;
  /** Test only: die (SIGKILL) at this step, once per process. */
  crashAt?: CrashPoint | null;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Transient prepare failures are retried this many times. */
  maxAttempts: number;
  /** The media pipeline: media is converted and stored before adapters see it; absent = URLs passed as given. */
  media?: MediaDeps;
  /** Counts each network's publish outcome (core/observability/metrics.ts); absent = not counted. */
  metrics?: { publishOutcome(network: string, outcome: 'success' | 'pending' | 'error'): void };
  /** Delay of the first comment after the post; FIRST_COMMENT_DELAY_MS when absent. */
  firstCommentDelayMs?: number;
  /** The per-post timeline (attempt-log.ts); absent = attempts not logged. */
  attemptLog?: AttemptLog;
}
