/**
 * @module
 * `confirm` for a network whose commit answers with the post at once: nothing is ever pending there, so the only
 * thing to confirm is a result the commit already stored (`{id, postUrl}`).
 */
import type { Network } from '@social-link-kit/protocol';
import type { CommitResult, PublishContext } from './publish-adapter.js';
import { failure } from './kit.js';

export function confirmStoredResult(network: Network) {
  return async (_ctx: PublishContext, state: Record<string, unknown>): Promise<CommitResult> => {
    const id = typeof state.id === 'string' ? state.id : null;
    const postUrl = typeof state.postUrl === 'string' ? state.postUrl : null;
    return id && postUrl ? { kind: 'done', id, postUrl } : failure(101, `Nothing to confirm on ${network}.`);
  };
}
