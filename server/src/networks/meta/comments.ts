/**
 * @module
 * Lists a Graph edge of comments page by page (`{data, paging: {cursors: {after}, next}}`), for facebook's
 * `/{post-id}/comments`, instagram's `/{media-id}/comments` and threads' `/{media-id}/conversation`.
 * Stops after MAX_PAGES pages so one busy post cannot hold a request for long.
 */
import type { Network } from '@social-link-kit/protocol';
import type { NetworkContext, NetworkComment } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { classifyCommentError } from './engagement-errors.js';
import { callGraph } from './graph.js';

type MetaNetwork = Extract<Network, 'facebook' | 'instagram' | 'threads'>;
const MAX_PAGES = 10;
const PAGE_SIZE = 100;

export async function listGraphEdge<T>(
  ctx: NetworkContext,
  platform: MetaNetwork,
  path: string,
  params: Record<string, unknown>,
  toComments: (item: T) => NetworkComment[],
): Promise<NetworkComment[] | PublishFailure> {
  const comments: NetworkComment[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await callGraph(ctx, 'GET', path, { ...params, limit: PAGE_SIZE, after });
    if (!answer.ok) return classifyCommentError(platform, answer, 'post');
    const data = Array.isArray(answer.body.data) ? (answer.body.data as T[]) : [];
    for (const item of data) comments.push(...toComments(item));
    const paging = answer.body.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
    if (typeof paging?.next !== 'string' || typeof paging.cursors?.after !== 'string') break;
    after = paging.cursors.after;
  }
  // Oldest first, as the contract says (Graph's order depends on the edge and its `order` parameter).
  return comments.sort((a, b) => a.created.localeCompare(b.created));
}

/** Graph's `created_time` / `timestamp` ("2026-11-24T00:20:09+0000") as ISO 8601. */
export function isoOf(time: unknown): string {
  const parsed = typeof time === 'string' ? Date.parse(time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  return Number.isFinite(parsed) ? new Date(parsed).toISOString() : new Date(0).toISOString();
}
