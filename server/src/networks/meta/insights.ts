/**
 * @module
 * What the three Meta networks share after a post is out: reading a Graph insights answer
 * (`{data: [{name, period, values: [{value}], total_value?: {value}}]}`), one insights call per post with its
 * not-found and failure handling, and the private reply of facebook and instagram
 * (`POST /{page-or-ig-user-id}/messages {recipient: {comment_id}, message: {text}}`).
 * A metric asked for and not in the answer failed this time (Graph leaves out metrics it cannot give); the service
 * fills it from stored data (`backfilledFrom`).
 */
import type { Network } from '@social-link-kit/protocol';
import type { NetworkContext, PostAnalytics } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { classifyAnalyticsError, classifyPrivateReplyError, isNotFound } from './engagement-errors.js';
import { callGraph, type GraphAnswer } from './graph.js';

type MetaNetwork = Extract<Network, 'facebook' | 'instagram' | 'threads'>;

/** Graph's `{data: [...]}` of an insights answer → metric name → its value (a number, or a breakdown object). */
export function insightValues(body: Record<string, unknown>): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const data = Array.isArray(body.data) ? (body.data as { name?: unknown; values?: { value?: unknown }[]; total_value?: { value?: unknown } }[]) : [];
  for (const item of data) {
    if (typeof item?.name !== 'string') continue;
    const value = item.total_value?.value ?? item.values?.at(-1)?.value;
    if (value !== undefined) values.set(item.name, value);
  }
  return values;
}

/** A number, or the sum of a breakdown (`post_reactions_by_type_total: {like: 3, love: 1}`); null otherwise. */
export function countOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (value && typeof value === 'object') {
    const parts = Object.values(value as Record<string, unknown>).filter((part): part is number => typeof part === 'number');
    return parts.length > 0 ? parts.reduce((sum, part) => sum + part, 0) : null;
  }
  return null;
}

/** Graph metric name → the service's name (docs/analytics.md), for metrics that are plain counts. */
export type MetricNames = Record<string, string>;

/** Reads `names` out of an insights answer; the ones missing are failed. */
export function metricsFrom(values: Map<string, unknown>, names: MetricNames): { metrics: Record<string, number>; failedMetrics: string[] } {
  const metrics: Record<string, number> = {};
  const failedMetrics: string[] = [];
  for (const [graphName, name] of Object.entries(names)) {
    const count = countOf(values.get(graphName));
    if (count === null) failedMetrics.push(name);
    else metrics[name] = count;
  }
  return { metrics, failedMetrics };
}

export type InsightsOutcome = { kind: 'answer'; body: Record<string, unknown> } | { kind: 'not-found' } | { kind: 'failed'; failure: PublishFailure; answer: Extract<GraphAnswer, { ok: false }> };

/** `GET /{id}/insights?metric=…` for one post. */
export async function postInsights(ctx: NetworkContext, platform: MetaNetwork, postId: string, metrics: string[], params: Record<string, unknown> = {}): Promise<InsightsOutcome> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(postId)}/insights`, { metric: metrics.join(','), ...params });
  if (answer.ok) return { kind: 'answer', body: answer.body };
  if (isNotFound(answer)) return { kind: 'not-found' };
  return { kind: 'failed', failure: classifyAnalyticsError(platform, answer), answer };
}

export const notFound = (id: string): PostAnalytics => ({ id, found: false, owned: false, metrics: {}, failedMetrics: [] });

/**
 * Each post's analytics, one Graph call (or two) per post, in order. The first failure that is not about one post
 * (a throttle, a revoked token, the network down) fails the whole call, as the service's storage rules expect.
 */
export async function eachPost(ids: string[], read: (id: string) => Promise<PostAnalytics | PublishFailure>): Promise<PostAnalytics[] | PublishFailure> {
  const answers: PostAnalytics[] = [];
  for (const id of ids) {
    const answer = await read(id);
    if ('kind' in answer) return answer;
    answers.push(answer);
  }
  return answers;
}

/** facebook and instagram: a private message to the author of a comment, in answer to it. */
export async function sendPrivateReply(ctx: NetworkContext, platform: 'facebook' | 'instagram', commentId: string, text: string): Promise<{ kind: 'done'; id: string } | PublishFailure> {
  const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(ctx.account.accountId)}/messages`, { recipient: { comment_id: commentId }, message: { text } });
  if (!answer.ok) return classifyPrivateReplyError(platform, answer);
  return { kind: 'done', id: String(answer.body.message_id ?? answer.body.id ?? '') };
}
