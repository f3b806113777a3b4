/**
 * @module
 * A call cut after its request was sent (a reset, a timeout, the connection closed before the answer) may have been
 * carried out by the network: its outcome is unknown, and for the one irreversible call of a publish that is decided
 * by looking, never by "temporary problem; try again" (a second copy) nor by giving up unseen.
 * - `mayHaveArrived(error)`: what a transport error says about the request — only a request that provably never left
 *   (an address refused by the guard, no connection, no name) is `false`;
 * - each classifier marks a failure without an answer with `mayHaveArrived` (unless `mayHaveArrived` said false);
 * - `lookAfterUncertainCommit(adapter)`: when a commit fails that way, the adapter's own reconcile looks for the post
 *   from the call's start: found → the post; provably absent → the failure as a plain retryable one; undecided or
 *   the look itself failing → `unconfirmed` (reconcile-by-identity.ts), never sent again. A thread cut that way after
 *   some parts went out is reported partly published, with the cut part's outcome unknown (`unconfirmed`).
 */
import { GuardedFetchError } from '../core/guarded-fetch.js';
import type { CommitResult, PublishAdapter } from './publish-adapter.js';
import { unconfirmed } from './reconcile-by-identity.js';

/** Errors raised before a byte of the request left: the connection was never made. */
const NEVER_CONNECTED = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|getaddrinfo|not an http|credentials are not fetched/i;

/** Whether a request that raised `error` instead of answering may still have reached the network. */
export function mayHaveArrived(error: unknown): boolean {
  if (error instanceof GuardedFetchError && (error.kind === 'bad-url' || error.kind === 'refused')) return false;
  const message = error instanceof Error ? `${error.message} ${String((error.cause as { code?: unknown } | undefined)?.code ?? '')}` : String(error);
  return !NEVER_CONNECTED.test(message);
}

/** The adapter with its commit decided by looking when the call may have arrived (see the module comment). */
export function lookAfterUncertainCommit(adapter: PublishAdapter): PublishAdapter {
  const commit = adapter.commit.bind(adapter);
  return {
    ...adapter,
    async commit(ctx, prepared): Promise<CommitResult> {
      const startedAt = ctx.now();
      const result = await commit(ctx, prepared);
      if (result.kind !== 'failed' || !result.mayHaveArrived) return result;
      // A thread already partly out names its parts; the one whose call got no answer may be out too: unconfirmed.
      if (result.details?.partlyPublished) return { ...result, details: { ...result.details, outcome: 'unknown', reason: 'the call of the last part was cut after it was sent' } };
      ctx.log('publish call cut after it was sent; looking for the post', { platform: adapter.platform, code: result.code });
      let found: Awaited<ReturnType<PublishAdapter['reconcile']>>;
      try {
        found = await adapter.reconcile({ ...ctx, commitStartedAt: ctx.commitStartedAt ?? startedAt }, prepared);
      } catch (error) {
        found = unconfirmed(adapter.platform, `the call was cut after it was sent and the look-up failed: ${error instanceof Error ? error.message.slice(0, 200) : 'error'}`);
      }
      if (found === null) {
        // Provably not on the network: the failure it was, which may be tried again.
        const { mayHaveArrived: _, ...plain } = result;
        return { ...plain, details: { ...result.details, lookedUp: 'not-found' } };
      }
      if (found.kind === 'failed' && found.details?.outcome !== 'unknown') {
        return unconfirmed(adapter.platform, `the call was cut after it was sent and the look-up failed: ${found.message.slice(0, 200)}`);
      }
      return found;
    },
  };
}
