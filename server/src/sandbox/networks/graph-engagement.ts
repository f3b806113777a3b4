/**
 * @module
 * What the Meta Graph sandboxes (facebook-api.ts, instagram-api.ts, threads-api.ts) share after a post is out:
 * - the comments under a sandbox post (the `sandbox_comments` rows, which the generic "audience comments" test route
 *   writes too, so a test's comment reaches each network's own comment edges and the comments webhook alike);
 * - insights in Graph's shape (`{data: [{name, period, values: [{value}], title, id}]}`) from numbers that grow with
 *   the service clock (insight-metrics.ts), with the analytics fault a test switched on (engagement-state.ts) answered
 *   as Graph errors: `down` → code 2 (HTTP 503), `444` → facebook's page limit 80001 (elsewhere code 4),
 *   `partial` → the first metrics left out of the answer, `limited` → instagram's 10 / 2108006;
 * - private replies, `POST /{page-or-ig-user-id}/messages {recipient: {comment_id}, message: {text}}` →
 *   `{recipient_id, message_id}`, refused with Graph bodies: a comment older than 7 days or answered already
 *   (10 / 2018278), an unknown comment (100 / 33), and `[[fault:490]]`…`[[fault:495]]` in the comment's text.
 */
import type { Context } from 'hono';
import type { SqlExecutor } from '../../core/db/sql-driver.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { newId } from '../../core/tokens.js';
import { engagementStateOf } from './engagement-state.js';
import { insightsFaultOf } from './insights-faults.js';
import { faultMarker } from './faults.js';
import { GraphSandboxError, graphBody } from './graph-sandbox.js';
import { ACCOUNT_METRIC_RATES, POST_METRIC_RATES, grownMetrics } from './insight-metrics.js';
import type { SandboxPost } from './store.js';
import { commentsUnder, type StoredComment } from './engagement-store.js';

type MetaNetwork = 'facebook' | 'instagram' | 'threads';

/** A sandbox comment as the Graph sandboxes read it (the one comment store of every sandbox network). */
export type SandboxCommentRow = StoredComment;

const PRIVATE_REPLY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
const PRIVATE_REPLY_MAX = 1000;
const WINDOW_SUBCODE = 2018278;

/** The Graph error each private-reply fault marker in a comment's text produces. */
const PRIVATE_REPLY_FAULTS: Record<string, [status: number, code: number, message: string, subcode?: number]> = {
  '490': [400, 100, 'Invalid parameter: comment_id', 33],
  '491': [400, 10, 'This message is sent outside of allowed window.', WINDOW_SUBCODE],
  '492': [403, 200, '(#200) Requires pages_messaging permission to manage the object'],
  '493': [400, 613, 'Calls to this api have exceeded the rate limit.'],
  '494': [400, 3, 'Application does not have the capability to make this API call.'],
  '495': [400, 100, 'This comment cannot receive a private reply.', 2018109],
};

/** Graph's time format: `2026-11-24T00:20:09+0000`. */
export const graphTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+0000');

export function commentsOf(deps: AppDeps, post: SandboxPost): Promise<SandboxCommentRow[]> {
  return commentsUnder(deps.storage.driver, post.id);
}

/** A comment under a post of `platform`, with that post's sandbox row id, network id and account. */
export async function findComment(deps: AppDeps, platform: MetaNetwork, commentId: string): Promise<(SandboxCommentRow & { postRowId: string; postId: string; accountId: string }) | null> {
  const row = await deps.storage.driver.get(
    `SELECT c.id, c.text, c.author, c.reply_to, c.created_at, p.id AS post_row_id, p.network_id, p.account_id
       FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE c.id = ? AND p.platform = ?`,
    [commentId, platform],
  );
  if (!row) return null;
  return {
    id: row.id as string,
    text: row.text as string,
    author: (row.author as string | null) ?? null,
    replyTo: (row.reply_to as string | null) ?? null,
    createdAt: Number(row.created_at),
    postRowId: row.post_row_id as string,
    postId: row.network_id as string,
    accountId: row.account_id as string,
  };
}

/** A comment by the account itself (author null), optionally answering another comment. */
export async function addOwnComment(deps: AppDeps, postRowId: string, text: string, replyTo: string | null, tx: SqlExecutor = deps.storage.driver): Promise<string> {
  const id = newId('sbc_');
  await tx.run('INSERT INTO sandbox_comments (id, post_id, text, media, created_at, author, reply_to) VALUES (?, ?, ?, ?, ?, ?, ?)', [id, postRowId, text, '[]', deps.clock(), null, replyTo]);
  return id;
}

/** Throws the analytics fault switched on for the account, as Graph would answer it. `limited` is instagram's own. */
export function throwInsightsFault(deps: AppDeps, platform: MetaNetwork, accountId: string): void {
  const fault = insightsFaultOf(deps.storage, platform, accountId);
  if (fault === 'down') throw new GraphSandboxError(503, 2, 'Service temporarily unavailable');
  if (fault === '444' && platform === 'facebook') throw new GraphSandboxError(400, 80001, 'There have been too many calls to this Page account. Wait a bit and try again.', undefined, 60);
  if (fault === '444') throw new GraphSandboxError(400, 4, 'Application request limit reached', undefined, 60);
}

/** How many of the first metrics the `partial` fault leaves out of an answer (0 when it is off). */
export function partialCount(deps: AppDeps, platform: MetaNetwork, accountId: string, count: number): number {
  return insightsFaultOf(deps.storage, platform, accountId) === 'partial' ? count : 0;
}

/** The post's metrics under the names of docs/analytics.md, grown since it was published. */
export function postMetricsOf(deps: AppDeps, platform: MetaNetwork, post: SandboxPost): Record<string, number> {
  return grownMetrics(POST_METRIC_RATES[platform] ?? {}, post.readyAt, deps.clock());
}

/** The account's metrics, grown since its first post (from 100); `mediaCount` is the number of live posts. */
export async function accountMetricsOf(deps: AppDeps, platform: MetaNetwork, posts: SandboxPost[]): Promise<Record<string, number>> {
  const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
  const metrics = grownMetrics(ACCOUNT_METRIC_RATES[platform] ?? {}, first, deps.clock(), 100);
  if ('mediaCount' in metrics) metrics.mediaCount = posts.filter((post) => post.deletedAt === null).length;
  return metrics;
}

/** `GET /{id}/insights?metric=a,b`: the metric names asked for, each known to this network; Graph's 100 otherwise. */
export function requestedMetrics(c: Context<AppEnv>, known: readonly string[]): string[] {
  const asked = (c.req.query('metric') ?? '').split(',').map((name) => name.trim()).filter(Boolean);
  if (asked.length === 0) throw new GraphSandboxError(400, 100, 'The parameter metric is required');
  const unknown = asked.find((name) => !known.includes(name));
  if (unknown) throw new GraphSandboxError(400, 100, `(#100) The value must be a valid insights metric: ${unknown.slice(0, 60)}`);
  return asked;
}

/** Graph's insights answer; the `partial` fault leaves the first `omit` metrics out. */
export function insightsAnswer(objectId: string, values: Record<string, unknown>, asked: string[], omit: number) {
  return {
    data: asked.slice(omit).map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] ?? 0 }], title: name, id: `${objectId}/insights/${name}/lifetime` })),
  };
}

/** `POST /{account}/messages {recipient: {comment_id}, message: {text}}` on facebook or instagram. */
export async function answerPrivateReply(deps: AppDeps, c: Context<AppEnv>, platform: 'facebook' | 'instagram', accountId: string) {
  const body = await graphBody(c);
  const commentId = (body.recipient as { comment_id?: unknown } | undefined)?.comment_id;
  const text = (body.message as { text?: unknown } | undefined)?.text;
  if (typeof commentId !== 'string' || commentId === '') throw new GraphSandboxError(400, 100, '(#100) The parameter recipient is required');
  if (typeof text !== 'string' || text.trim() === '' || text.length > PRIVATE_REPLY_MAX) throw new GraphSandboxError(400, 100, '(#100) Param message[text] must be 1 to 1000 characters', 2018001);
  const comment = await findComment(deps, platform, commentId);
  if (!comment || comment.accountId !== accountId) throw new GraphSandboxError(400, 100, 'Invalid parameter: comment_id does not exist', 33);
  const marker = faultMarker(comment.text);
  const fault = marker ? PRIVATE_REPLY_FAULTS[marker] : undefined;
  if (fault) throw new GraphSandboxError(fault[0], fault[1], `Sandbox fault ${marker}: ${fault[2]}`, fault[3]);
  if (deps.clock() - comment.createdAt > PRIVATE_REPLY_WINDOW_MS) throw new GraphSandboxError(400, 10, 'This message is sent outside of allowed window.', WINDOW_SUBCODE);
  const { privatelyAnswered } = engagementStateOf(deps);
  if (privatelyAnswered.has(comment.id)) throw new GraphSandboxError(400, 10, 'A private reply was already sent for this comment.', WINDOW_SUBCODE);
  privatelyAnswered.add(comment.id);
  return c.json({ recipient_id: `${platform}-user-${comment.author ?? 'unknown'}`.slice(0, 80), message_id: newId('m_') });
}
