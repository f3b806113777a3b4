/**
 * @module
 * The gmb (Google Business Profile) publishing adapter: local posts through the Business Profile APIs
 * (google-api.ts: the sandbox on loopback, or Google) with the account's access token.
 * - validate: summary ≤1,500 characters, text required, one photo at most, no video, `gmbOptions` (local-post.ts).
 * - prepare: finds the location to post to (`GET v1/accounts` → the first account, `GET v1/{account}/locations`
 *   → its first location) and builds the `LocalPost`; kept with the attempt, so a resumed attempt asks nothing again.
 * - commit: `POST v4/accounts/{a}/locations/{l}/localPosts` → the `LocalPost` with its `name` (the id) and
 *   `searchUrl` (the post URL).
 * - reconcile: the location's local posts (`GET …/localPosts`, paged by `pageToken` back to the commit's start) with the
 *   same summary and topic, not recorded by another post; Google takes no client key, so content and time are what
 *   identify it (reconcile-by-identity.ts).
 * - remove: `DELETE v4/{name}`. No comments: local posts have none.
 * Errors: classify.ts (519 keeps the account connected).
 */
import type { CommitResult, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { classifyGmbError, classifyGmbRefresh } from './classify.js';
import { oauth2RefreshGrantClassifiedBy } from '../oauth/refresh-grant.js';
import { callGoogle, googleUrl } from './google-api.js';
import { findByIdentity } from '../reconcile-by-identity.js';
import { GMB_SUMMARY_MAX, gmbOptionIssues, localPostOf, type LocalPost } from './local-post.js';
import { accessTokenOf as tokenOf, failure, isFailure } from '../kit.js';

interface GmbPrepared extends PreparedState {
  /** `accounts/{a}/locations/{l}`, the v4 parent of local posts. */
  location: string;
  localPost: LocalPost;
  /** When prepare ran (service clock): reconcile looks only at posts made since. */
  preparedAt: number;
}

const VIDEO_URL = /\.(mp4|mov|m4v|webm)(\?|#|$)/i;

function validateGmb(post: PublishContext['post']): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const length = [...post.text].length;
  if (post.text.trim() === '') issues.push(failure(101, 'gmb posts need text (the summary).'));
  if (length > GMB_SUMMARY_MAX) issues.push(failure(101, `gmb posts are at most ${GMB_SUMMARY_MAX} characters; this one has ${length}.`));
  // `isVideo` speaks of the request's media: it matters only when gmb gets some.
  if ((post.isVideo && post.mediaUrls.length > 0) || post.mediaUrls.some((url) => VIDEO_URL.test(url))) issues.push(failure(164, 'gmb local posts take photos only, not video.'));
  if (post.mediaUrls.length > 1) issues.push(failure(164, 'gmb takes one photo per post.'));
  issues.push(...gmbOptionIssues(post.options));
  return issues;
}

/** The first location of the first Business Profile account the Google user manages. */
async function findLocation(ctx: PublishContext, token: string): Promise<string | PublishFailure> {
  const accounts = await callGoogle(ctx, token, 'GET', googleUrl(ctx, 'mybusinessaccountmanagement', '/v1/accounts?pageSize=20'));
  if (accounts.status !== 200) return classifyGmbError(accounts);
  const account = (Array.isArray(accounts.json.accounts) ? accounts.json.accounts : [])
    .map((entry) => (entry as { name?: unknown }).name)
    .find((name): name is string => typeof name === 'string' && /^accounts\/\d+$/.test(name));
  if (!account) return failure(101, 'This Google account manages no Business Profile; link the Google account that owns the business.');
  const locations = await callGoogle(ctx, token, 'GET', googleUrl(ctx, 'mybusinessbusinessinformation', `/v1/${account}/locations?readMask=name,title&pageSize=20`));
  if (locations.status !== 200) return classifyGmbError(locations);
  const location = (Array.isArray(locations.json.locations) ? locations.json.locations : [])
    .map((entry) => (entry as { name?: unknown }).name)
    .find((name): name is string => typeof name === 'string' && /^locations\/\d+$/.test(name));
  if (!location) return failure(101, 'This Business Profile account has no location to post to.');
  return `${account}/${location}`;
}

function postUrlOf(ctx: PublishContext, localPost: Record<string, unknown>, name: string): string {
  if (typeof localPost.searchUrl === 'string' && /^https?:\/\//.test(localPost.searchUrl)) return localPost.searchUrl;
  return ctx.account.sandbox ? `${ctx.baseUrl.replace(/\/+$/, '')}/posts/${encodeURIComponent(name)}` : 'https://business.google.com/';
}

const sameContent = (found: Record<string, unknown>, sent: LocalPost) => found.summary === sent.summary && (found.topicType ?? 'STANDARD') === sent.topicType;

export const gmbPublishAdapter: PublishAdapter = {
  platform: 'gmb',

  validate: (post) => validateGmb(post),
  // Google access tokens last an hour: renewed with the refresh grant; an outage of Google's token endpoint is 519
  // (the account stays connected), a refused refresh token a relink.
  refresh: oauth2RefreshGrantClassifiedBy(classifyGmbRefresh),

  async prepare(ctx, previous) {
    const issues = validateGmb(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && typeof previous.location === 'string' && previous.localPost) return previous;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const location = await findLocation(ctx, token);
    if (isFailure(location)) return location;
    const prepared: GmbPrepared = { location, localPost: localPostOf(ctx.post, ctx.post.mediaUrls), preparedAt: ctx.now() };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const prepared = state as GmbPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callGoogle(ctx, token, 'POST', googleUrl(ctx, 'mybusiness', `/v4/${prepared.location}/localPosts`), prepared.localPost);
    const name = answer.json.name;
    if (answer.status === 200 && typeof name === 'string') return { kind: 'done', id: name, postUrl: postUrlOf(ctx, answer.json, name) };
    if (answer.status === 200) return failure(500, 'gmb accepted the post but sent no id; check the profile before retrying.', { details: { outcome: 'unknown' } });
    return classifyGmbError(answer);
  },

  confirm: confirmStoredResult('gmb'),

  async reconcile(ctx, state) {
    const prepared = state as GmbPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const found = await findByIdentity(
      ctx,
      async (pageToken) => {
        const answer = await callGoogle(ctx, token, 'GET', googleUrl(ctx, 'mybusiness', `/v4/${prepared.location}/localPosts?pageSize=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`));
        if (answer.status !== 200) return classifyGmbError(answer);
        return { items: Array.isArray(answer.json.localPosts) ? (answer.json.localPosts as Record<string, unknown>[]) : [], next: typeof answer.json.nextPageToken === 'string' ? answer.json.nextPageToken : null };
      },
      (post) => (typeof post.name === 'string' ? { id: post.name, createdAt: Date.parse(String(post.createTime)), matches: sameContent(post, prepared.localPost) } : null),
    );
    if (found === null || isFailure(found)) return found;
    return { kind: 'done', id: found.id, postUrl: postUrlOf(ctx, found.item, found.id) };
  },

  async remove(ctx, networkPostId) {
    const token = await tokenOf(ctx);
    if (isFailure(token) || !/^accounts\/\d+\/locations\/\d+\/localPosts\/[\w-]+$/.test(networkPostId)) return false;
    const answer = await callGoogle(ctx, token, 'DELETE', googleUrl(ctx, 'mybusiness', `/v4/${networkPostId}`));
    return answer.status === 200 || answer.status === 404;
  },
};
