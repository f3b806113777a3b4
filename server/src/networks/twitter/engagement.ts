/**
 * @module
 * twitter (X API v2) analytics, comments and replies (analytics-contract.ts), signed like publishing with
 * OAuth 1.0a (the integrator's app and the user's token):
 * - post analytics: `GET /2/tweets?ids=…` (≤100, one call) with `tweet.fields=author_id,public_metrics,
 *   non_public_metrics,organic_metrics`. A tweet of another author is found but not owned (186). A thread is stored
 *   as `id1,id2,…`: only its first tweet is read; each member's analytics need its own id (spec 4.4 rule 3).
 * - account analytics: `GET /2/users/{id}?user.fields=public_metrics`.
 * - comments: after `GET /2/tweets?ids={id}` shows the tweet is the account's, the replies in its conversation,
 *   `GET /2/tweets/search/recent?query=conversation_id:{id}` (X searches the last 7 days); reply: `POST /2/tweets` answering the comment, after checking it is one of them.
 * Metric names are X's, camel-cased: `public_metrics.impression_count` → `impressionCount`.
 */
import type { AnalyticsAdapter, NetworkComment, NetworkContext, PostAnalytics } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { classifyXError } from './classify.js';
import { credentialsOf as publishingCredentialsOf } from './credentials.js';
import { callX, type XAnswer } from './x-api.js';

const TWEET_FIELDS = 'author_id,public_metrics,non_public_metrics,organic_metrics';
/** Where each metric comes from: `public_metrics` for everyone, `non_public_metrics` for the author only. */
const POST_METRICS: Record<string, [group: string, field: string]> = {
  impressionCount: ['public_metrics', 'impression_count'],
  likeCount: ['public_metrics', 'like_count'],
  retweetCount: ['public_metrics', 'retweet_count'],
  replyCount: ['public_metrics', 'reply_count'],
  quoteCount: ['public_metrics', 'quote_count'],
  bookmarkCount: ['public_metrics', 'bookmark_count'],
  urlLinkClicks: ['non_public_metrics', 'url_link_clicks'],
  userProfileClicks: ['non_public_metrics', 'user_profile_clicks'],
};
const ACCOUNT_METRICS: Record<string, string> = {
  followersCount: 'followers_count',
  followingCount: 'following_count',
  tweetCount: 'tweet_count',
  listedCount: 'listed_count',
};
const TWEET_ID = /^\d{1,30}$/;

interface Tweet {
  id: string;
  text?: string;
  author_id?: string;
  created_at?: string;
  referenced_tweets?: { type: string; id: string }[];
  [group: string]: unknown;
}

/** Reads sign like publishing; without an app, say where reads take it from (the profile's tweets, not this request). */
async function credentialsOf(ctx: NetworkContext) {
  const credentials = await publishingCredentialsOf(ctx);
  if ('kind' in credentials && credentials.code === 419) {
    return { ...credentials, message: "twitter reads sign with the X developer app this profile's tweets were published through; publish to twitter through your app (X-Twitter-OAuth1-Api-Key and -Secret) first." };
  }
  return credentials;
}

/** A failed read: X's classification, except that no answer or a 5xx is a 503 the service may recover from stored data. */
function readFailure(answer: XAnswer, ctx: NetworkContext): PublishFailure {
  const failure = classifyXError(answer, ctx.now());
  if (answer.status === 0 || answer.status >= 500) return { ...failure, code: 503, message: `twitter analytics are unavailable (HTTP ${answer.status}); try again later.`, retryAvailable: true };
  return failure;
}

/** The tweet a stored network post id names: a thread's first tweet. */
const parentOf = (networkPostId: string) => networkPostId.split(',')[0]!;

function metricsOf(tweet: Tweet, table: Record<string, [string, string]>) {
  const metrics: Record<string, number> = {};
  const failedMetrics: string[] = [];
  for (const [name, [group, field]] of Object.entries(table)) {
    const value = (tweet[group] as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'number') metrics[name] = value;
    else failedMetrics.push(name);
  }
  return { metrics, failedMetrics };
}

async function conversationOf(ctx: NetworkContext, networkPostId: string): Promise<NetworkComment[] | PublishFailure> {
  const credentials = await credentialsOf(ctx);
  if ('kind' in credentials) return credentials;
  const root = parentOf(networkPostId);
  if (!TWEET_ID.test(root)) return { kind: 'failed', code: 186, message: 'Not a twitter post id.', retryAvailable: false, relink: false };
  // Only the account's own posts (spec 4.4 rule 1, 186 otherwise): search would list any public conversation.
  const lookup = await callX(ctx, credentials, 'GET', `/2/tweets?ids=${root}&tweet.fields=author_id`);
  if (lookup.status !== 200) return readFailure(lookup, ctx);
  const tweet = Array.isArray(lookup.json.data) ? (lookup.json.data as Tweet[])[0] : undefined;
  if (!tweet || tweet.author_id !== ctx.account.accountId) return { kind: 'failed', code: 186, message: 'No such post on this twitter account.', retryAvailable: false, relink: false };
  const query = new URLSearchParams({
    query: `conversation_id:${root}`,
    'tweet.fields': 'author_id,created_at,conversation_id,referenced_tweets',
    expansions: 'author_id',
    'user.fields': 'username',
    max_results: '100',
  });
  const answer = await callX(ctx, credentials, 'GET', `/2/tweets/search/recent?${query}`);
  if (answer.status !== 200) return readFailure(answer, ctx);
  const ownParts = new Set(networkPostId.split(','));
  const users = new Map(((answer.json.includes as { users?: { id: string; username: string }[] } | undefined)?.users ?? []).map((user) => [user.id, user.username]));
  const tweets = (Array.isArray(answer.json.data) ? (answer.json.data as Tweet[]) : []).filter((tweet) => !ownParts.has(tweet.id));
  return tweets
    .map((tweet) => {
      const repliedTo = tweet.referenced_tweets?.find((ref) => ref.type === 'replied_to')?.id ?? null;
      return {
        id: tweet.id,
        text: tweet.text ?? '',
        author: users.get(tweet.author_id ?? '') ?? tweet.author_id ?? '',
        created: tweet.created_at ?? '',
        // A reply to the post (or one of its thread parts) is a top-level comment.
        replyTo: repliedTo && !ownParts.has(repliedTo) ? repliedTo : null,
      };
    })
    .sort((a, b) => a.created.localeCompare(b.created));
}

export const twitterEngagement: AnalyticsAdapter = {
  async analytics(ctx, networkPostIds) {
    const credentials = await credentialsOf(ctx);
    if ('kind' in credentials) return credentials;
    const parents = [...new Set(networkPostIds.map(parentOf).filter((id) => TWEET_ID.test(id)))];
    const tweets = new Map<string, Tweet>();
    if (parents.length > 0) {
      const answer = await callX(ctx, credentials, 'GET', `/2/tweets?ids=${parents.join(',')}&tweet.fields=${TWEET_FIELDS}`);
      if (answer.status !== 200) return readFailure(answer, ctx);
      for (const tweet of Array.isArray(answer.json.data) ? (answer.json.data as Tweet[]) : []) tweets.set(tweet.id, tweet);
    }
    return networkPostIds.map((id): PostAnalytics => {
      const tweet = tweets.get(parentOf(id));
      if (!tweet) return { id, found: false, owned: false, metrics: {}, failedMetrics: [] };
      return { id, found: true, owned: tweet.author_id === ctx.account.accountId, ...metricsOf(tweet, POST_METRICS) };
    });
  },

  async accountAnalytics(ctx) {
    const credentials = await credentialsOf(ctx);
    if ('kind' in credentials) return credentials;
    const answer = await callX(ctx, credentials, 'GET', `/2/users/${encodeURIComponent(ctx.account.accountId)}?user.fields=public_metrics`);
    if (answer.status !== 200) return readFailure(answer, ctx);
    const user = (answer.json.data ?? {}) as Tweet;
    return metricsOf(user, Object.fromEntries(Object.entries(ACCOUNT_METRICS).map(([name, field]) => [name, ['public_metrics', field]])));
  },

  comments: conversationOf,

  async reply(ctx, networkPostId, commentId, text) {
    const comments = await conversationOf(ctx, networkPostId);
    if (!Array.isArray(comments)) return comments;
    if (!comments.some((comment) => comment.id === commentId)) return { kind: 'failed', code: 490, message: 'No such comment under this post.', retryAvailable: false, relink: false };
    const credentials = await credentialsOf(ctx);
    if ('kind' in credentials) return credentials;
    const answer = await callX(ctx, credentials, 'POST', '/2/tweets', { json: { text, reply: { in_reply_to_tweet_id: commentId } } });
    const id = (answer.json.data as { id?: unknown } | undefined)?.id;
    if (answer.status >= 200 && answer.status < 300 && typeof id === 'string') return { kind: 'done', id };
    return readFailure(answer, ctx);
  },
};
