/**
 * @module
 * The sandbox X API v2's reads after a post is out, at `/sandbox/twitter`, in X's wire format (signed with OAuth 1.0a
 * like every sandbox X call, twitter-api.ts):
 * - `GET /2/tweets?ids=a,b&tweet.fields=…` (1-100 ids) → `{data: [{id, text, author_id, created_at, public_metrics,
 *   non_public_metrics?, organic_metrics?}], errors?: [{resource_id, title, detail, type}]}`: unknown or deleted ids
 *   are "Not Found Error" entries; the private metrics of another author's tweet are an authorization error entry.
 * - `GET /2/users/{id}?user.fields=public_metrics` → `{data: {id, username, public_metrics}}`.
 * - `GET /2/tweets/search/recent?query=conversation_id:{id}` → the replies in that conversation: the audience's
 *   comments (`POST /sandbox/net/twitter/p/{id}/audience-comments`), the account's answers to them and its reply
 *   tweets, as `{data: [{id, text, author_id, created_at, conversation_id, referenced_tweets}], includes: {users}}`.
 * - a `POST /2/tweets` answering an audience comment is kept as a reply under the same post (`replyToAudienceComment`).
 * Metrics grow with the service clock; the account's analytics fault (insights-faults.ts) applies: `down` → 503,
 * `444` → 429, `475` → 403, `partial` → the first metric missing with a field error.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { addReply, commentsUnder, findComment, sandboxPostMetrics } from './engagement-store.js';
import { grownMetrics } from './insight-metrics.js';
import { insightsFaultOf } from './insights-faults.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import { authorizeXRequest, problem, XApiError } from './twitter-api.js';
import { answerOwnErrors } from './own-errors.js';

const MAX_IDS = 100;
/** Per hour, under X's names. */
const PUBLIC_RATES = { impression_count: 200, like_count: 10, retweet_count: 3, reply_count: 2, quote_count: 1, bookmark_count: 1 };
const PRIVATE_RATES = { impression_count: 200, url_link_clicks: 4, user_profile_clicks: 2 };
const USER_RATES = { followers_count: 5, following_count: 1, listed_count: 0 };
const NOT_FOUND = 'https://api.twitter.com/2/problems/resource-not-found';

function faultError(fault: string | undefined): XApiError | null {
  if (fault === 'down') return problem(503, 'Service Unavailable', 'Service Unavailable');
  if (fault === '444') return problem(429, 'Too Many Requests', 'Too Many Requests');
  if (fault === '475') return problem(403, 'Forbidden', 'You are not permitted to perform this action.');
  return null;
}

export function sandboxTwitterEngagementRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const db = () => deps.storage.driver;

  answerOwnErrors(routes, XApiError, (error, c) => c.json(error.body, error.status as ContentfulStatusCode, error.headers));

  const caller = async (c: Context<SandboxEnv>) => {
    const accountId = await authorizeXRequest(deps, c, []);
    const fault = insightsFaultOf(deps.storage, 'twitter', accountId);
    const failed = faultError(fault);
    if (failed) throw failed;
    return { accountId, fault };
  };

  // Public on X: any account reads a conversation, a user's public counts and a tweet's public metrics (the
  // non-public and organic metrics go to the tweet's author only, below).
  routes.get('/2/tweets/search/recent', async (c) => {
    await caller(c);
    const root = /^conversation_id:(\d{1,30})$/.exec(c.req.query('query') ?? '')?.[1];
    if (!root) throw problem(400, 'Invalid Request', 'The sandbox searches `conversation_id:{id}` only.');
    const post = await store().findByPlatformId('twitter', root);
    if (!post || post.deletedAt !== null) return c.json({ meta: { result_count: 0 } });
    const comments = (await commentsUnder(db(), post.id)).map((comment) => ({
      id: comment.id,
      text: comment.text,
      author_id: comment.author ?? post.accountId,
      created_at: new Date(comment.createdAt).toISOString(),
      conversation_id: root,
      referenced_tweets: [{ type: 'replied_to', id: comment.replyTo ?? root }],
    }));
    // The account's own reply tweets to the post (its first comment, its thread parts).
    const rows = await db().all("SELECT network_id, account_id, text, created_at, record FROM sandbox_posts WHERE platform = 'twitter' AND deleted_at IS NULL AND record LIKE ?", [
      `%"inReplyTo":"${root}"%`,
    ]);
    const replies = rows.map((row) => ({
      id: row.network_id as string,
      text: row.text as string,
      author_id: row.account_id as string,
      created_at: new Date(Number(row.created_at)).toISOString(),
      conversation_id: root,
      referenced_tweets: [{ type: 'replied_to', id: root }],
    }));
    const data = [...comments, ...replies];
    const users = [...new Set(data.map((tweet) => tweet.author_id))].map((id) => ({ id, username: id, name: id }));
    return c.json({ data, includes: { users }, meta: { result_count: data.length } });
  });

  routes.get('/2/tweets', async (c) => {
    const { accountId, fault } = await caller(c);
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0 || ids.length > MAX_IDS || ids.some((id) => !/^\d{1,30}$/.test(id))) {
      throw problem(400, 'Invalid Request', `The \`ids\` query parameter value must hold 1 to ${MAX_IDS} tweet ids.`);
    }
    const fields = (c.req.query('tweet.fields') ?? '').split(',');
    const now = deps.clock();
    const data: Record<string, unknown>[] = [];
    const errors: Record<string, unknown>[] = [];
    for (const id of ids) {
      const post = await store().findByPlatformId('twitter', id);
      if (!post || post.deletedAt !== null) {
        errors.push({ value: id, detail: `Could not find tweet with ids: [${id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'ids', resource_id: id, type: NOT_FOUND });
        continue;
      }
      const own = post.accountId === accountId;
      const tweet: Record<string, unknown> = { id, text: post.text, author_id: post.accountId, created_at: new Date(post.createdAt).toISOString(), edit_history_tweet_ids: [id] };
      if (fields.includes('public_metrics')) {
        const { metrics, failed } = sandboxPostMetrics(PUBLIC_RATES, post, now, own ? fault : undefined);
        tweet.public_metrics = metrics;
        for (const field of failed) errors.push({ resource_id: id, resource_type: 'tweet', field: `public_metrics.${field}`, title: 'Field Unavailable', detail: `${field} is temporarily unavailable.`, type: 'about:blank' });
      }
      for (const group of ['non_public_metrics', 'organic_metrics'] as const) {
        if (!fields.includes(group)) continue;
        // X gives the private metrics to the tweet's author only.
        if (!own) {
          errors.push({ resource_id: id, resource_type: 'tweet', field: group, title: 'Authorization Error', detail: `Sorry, you are not authorized to see the field ${group} on the Tweet with id: [${id}].`, type: 'https://api.twitter.com/2/problems/not-authorized-for-field' });
          continue;
        }
        tweet[group] = grownMetrics(group === 'organic_metrics' ? { ...PUBLIC_RATES, ...PRIVATE_RATES } : PRIVATE_RATES, post.readyAt, now);
      }
      data.push(tweet);
    }
    return c.json({ ...(data.length > 0 && { data }), ...(errors.length > 0 && { errors }) });
  });

  routes.get('/2/users/:id', async (c) => {
    const { accountId, fault } = await caller(c);
    const userId = c.req.param('id');
    const posts = await store().listForAccounts([{ platform: 'twitter', accountId: userId }], 1000);
    if (userId !== accountId && posts.length === 0) throw problem(404, 'Not Found Error', `Could not find user with id: [${userId.slice(0, 30)}].`, NOT_FOUND);
    const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
    const metrics: Record<string, number> = { ...grownMetrics(USER_RATES, first, deps.clock(), 100), tweet_count: posts.filter((post) => post.deletedAt === null).length };
    const errors = [];
    if (fault === 'partial' && userId === accountId) {
      delete metrics.followers_count;
      errors.push({ resource_id: userId, resource_type: 'user', field: 'public_metrics.followers_count', title: 'Field Unavailable', detail: 'followers_count is temporarily unavailable.', type: 'about:blank' });
    }
    return c.json({ data: { id: userId, username: userId, name: userId, public_metrics: metrics }, ...(errors.length > 0 && { errors }) });
  });

  return routes;
}

/**
 * A reply tweet answering a comment of the sandbox audience under one of `accountId`'s own tweets: kept under the
 * same post, written as that account; null when it names no such comment (a comment under another account's tweet
 * included: the sandbox would write the reply as that tweet's author, so it is not found for anyone else).
 */
export async function replyToAudienceComment(deps: SandboxHost, accountId: string, replyTo: string, text: string): Promise<{ id: string; text: string; edit_history_tweet_ids: string[] } | null> {
  const comment = await findComment(deps.storage.driver, 'twitter', replyTo);
  if (!comment || comment.accountId !== accountId) return null;
  const id = await addReply(deps.storage.driver, comment.postId, text, comment.id, deps.clock());
  return { id, text, edit_history_tweet_ids: [id] };
}
