/**
 * @module
 * linkedin analytics, comments and replies (analytics-contract.ts) over the versioned REST API (rest-api.ts):
 * - a page (the account is an organization URN): post analytics from one
 *   `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=…&shares=List(…)`
 *   (`totalShareStatistics`: `impressionCount`, `uniqueImpressionsCount`, `clickCount`, `likeCount`, `commentCount`,
 *   `shareCount`); followers from `GET /rest/networkSizes/{org}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`.
 * - a personal profile: `GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:…)&queryType=…&aggregation=TOTAL`,
 *   one call per metric type (IMPRESSION, MEMBERS_REACHED, REACTION, COMMENT, RESHARE), so one failing type is a
 *   failed metric, not a failed answer; followers from `GET /rest/memberFollowersCount?q=me`. A 403 there is a
 *   profile linked before the member analytics scopes existed: 475, relink.
 * - comments: `GET /rest/socialActions/{post}/comments` of the account's own post (`GET /rest/posts/{urn}` first:
 *   186 otherwise), ids are comment URNs; reply: `POST /rest/socialActions/{comment}/comments` with `parentComment`.
 */
import type { AccountAnalytics, AnalyticsAdapter, NetworkComment, NetworkContext, PostAnalytics } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { classifyLinkedInError } from './classify.js';
import { callLinkedIn, type LinkedInAnswer } from './rest-api.js';
import { accessTokenOf as tokenOf, failure } from '../kit.js';

const ORGANIZATION_METRICS = ['impressionCount', 'uniqueImpressionsCount', 'clickCount', 'likeCount', 'commentCount', 'shareCount'];
/** Member post metric types, and the name each count is reported under. */
const MEMBER_METRICS: Record<string, string> = {
  IMPRESSION: 'impressionCount',
  MEMBERS_REACHED: 'membersReachedCount',
  REACTION: 'reactionCount',
  COMMENT: 'commentCount',
  RESHARE: 'reshareCount',
};
const MEMBER_ANALYTICS_LIMIT = 5;

const isOrganization = (ctx: NetworkContext) => ctx.account.accountId.startsWith('urn:li:organization:');
const authorOf = (ctx: NetworkContext) => (ctx.account.accountId.startsWith('urn:li:') ? ctx.account.accountId : `urn:li:person:${ctx.account.accountId}`);
const base = (ctx: NetworkContext) => `${ctx.baseUrl.replace(/\/+$/, '')}/rest`;
/** Rest.li 2.0 encodes URNs inside lists and paths. */
const enc = (urn: string) => encodeURIComponent(urn);

/** A failed read: no answer or a 5xx is a 503 the service may recover from stored data; a 403 on analytics is 475. */
function readFailure(answer: LinkedInAnswer): PublishFailure {
  if (answer.status === 0 || answer.status >= 500) return failure(503, `linkedin analytics are unavailable (HTTP ${answer.status}); try again later.`, { retryAvailable: true });
  return classifyLinkedInError(answer, 'analytics');
}

async function organizationAnalytics(ctx: NetworkContext, token: string, ids: string[]): Promise<PostAnalytics[] | PublishFailure> {
  const shares = ids.filter((id) => id.startsWith('urn:li:share:'));
  const ugcPosts = ids.filter((id) => id.startsWith('urn:li:ugcPost:'));
  const query = [
    'q=organizationalEntity',
    `organizationalEntity=${enc(ctx.account.accountId)}`,
    ...(shares.length > 0 ? [`shares=List(${shares.map(enc).join(',')})`] : []),
    ...(ugcPosts.length > 0 ? [`ugcPosts=List(${ugcPosts.map(enc).join(',')})`] : []),
  ].join('&');
  const stats = new Map<string, Record<string, unknown>>();
  if (shares.length + ugcPosts.length > 0) {
    const answer = await callLinkedIn(ctx, token, 'GET', `${base(ctx)}/organizationalEntityShareStatistics?${query}`);
    if (answer.status !== 200) return readFailure(answer);
    for (const element of (answer.json.elements as Record<string, unknown>[] | undefined) ?? []) {
      const urn = (element.share ?? element.ugcPost) as string | undefined;
      if (urn) stats.set(urn, (element.totalShareStatistics ?? {}) as Record<string, unknown>);
    }
  }
  return ids.map((id): PostAnalytics => {
    const total = stats.get(id);
    if (!total) return { id, found: false, owned: false, metrics: {}, failedMetrics: [] };
    const metrics = Object.fromEntries(ORGANIZATION_METRICS.filter((name) => typeof total[name] === 'number').map((name) => [name, total[name] as number]));
    return { id, found: true, owned: true, metrics, failedMetrics: ORGANIZATION_METRICS.filter((name) => !(name in metrics)) };
  });
}

/** One member post: a call per metric type. Not found → found false; 403 → 475 for the whole answer. */
async function memberPostAnalytics(ctx: NetworkContext, token: string, id: string): Promise<PostAnalytics | PublishFailure> {
  const entityKind = id.startsWith('urn:li:ugcPost:') ? 'ugc' : 'share';
  const answers = await Promise.all(
    Object.keys(MEMBER_METRICS).map((type) =>
      callLinkedIn(ctx, token, 'GET', `${base(ctx)}/memberCreatorPostAnalytics?q=entity&entity=(${entityKind}:${enc(id)})&queryType=${type}&aggregation=TOTAL`),
    ),
  );
  const metrics: Record<string, number> = {};
  const failedMetrics: string[] = [];
  let firstFailure: LinkedInAnswer | null = null;
  for (const [index, type] of Object.keys(MEMBER_METRICS).entries()) {
    const answer = answers[index]!;
    if (answer.status === 403 || answer.status === 401) return readFailure(answer);
    if (answer.status === 404) return { id, found: false, owned: false, metrics: {}, failedMetrics: [] };
    const count = ((answer.json.elements as { count?: unknown }[] | undefined) ?? [])[0]?.count;
    if (answer.status === 200 && typeof count === 'number') metrics[MEMBER_METRICS[type]!] = count;
    else {
      failedMetrics.push(MEMBER_METRICS[type]!);
      firstFailure ??= answer;
    }
  }
  if (Object.keys(metrics).length === 0 && firstFailure) return readFailure(firstFailure);
  return { id, found: true, owned: true, metrics, failedMetrics };
}

function followers(count: unknown): AccountAnalytics {
  return typeof count === 'number' ? { metrics: { followerCount: count }, failedMetrics: [] } : { metrics: {}, failedMetrics: ['followerCount'] };
}

async function ownPost(ctx: NetworkContext, token: string, urn: string): Promise<true | PublishFailure> {
  const answer = await callLinkedIn(ctx, token, 'GET', `${base(ctx)}/posts/${enc(urn)}`);
  if (answer.status === 404) return failure(186, 'No such post on this linkedin account.');
  if (answer.status !== 200) return readFailure(answer);
  return answer.json.author === authorOf(ctx) ? true : failure(186, 'No such post on this linkedin account.');
}

export const linkedinEngagement: AnalyticsAdapter = {
  async analytics(ctx, networkPostIds) {
    const token = await tokenOf(ctx);
    if (typeof token !== 'string') return token;
    if (isOrganization(ctx)) return organizationAnalytics(ctx, token, networkPostIds);
    const results: PostAnalytics[] = [];
    // A few posts at a time: each asks five metric types.
    for (let start = 0; start < networkPostIds.length; start += MEMBER_ANALYTICS_LIMIT) {
      const batch = await Promise.all(networkPostIds.slice(start, start + MEMBER_ANALYTICS_LIMIT).map((id) => memberPostAnalytics(ctx, token, id)));
      for (const result of batch) {
        if ('kind' in result) return result;
        results.push(result);
      }
    }
    return results;
  },

  async accountAnalytics(ctx) {
    const token = await tokenOf(ctx);
    if (typeof token !== 'string') return token;
    if (isOrganization(ctx)) {
      const answer = await callLinkedIn(ctx, token, 'GET', `${base(ctx)}/networkSizes/${enc(ctx.account.accountId)}?edgeType=COMPANY_FOLLOWED_BY_MEMBER`);
      if (answer.status !== 200) return readFailure(answer);
      return followers(answer.json.firstDegreeSize);
    }
    const answer = await callLinkedIn(ctx, token, 'GET', `${base(ctx)}/memberFollowersCount?q=me`);
    if (answer.status !== 200) return readFailure(answer);
    return followers(((answer.json.elements as { memberFollowersCount?: unknown }[] | undefined) ?? [])[0]?.memberFollowersCount);
  },

  async comments(ctx, networkPostId) {
    const token = await tokenOf(ctx);
    if (typeof token !== 'string') return token;
    const own = await ownPost(ctx, token, networkPostId);
    if (own !== true) return own;
    const answer = await callLinkedIn(ctx, token, 'GET', `${base(ctx)}/socialActions/${enc(networkPostId)}/comments?count=100`);
    if (answer.status !== 200) return readFailure(answer);
    const elements = (answer.json.elements as Record<string, unknown>[] | undefined) ?? [];
    return elements
      .map(
        (element): NetworkComment => ({
          id: String(element.commentUrn ?? element.$URN ?? element.id),
          text: String((element.message as { text?: unknown } | undefined)?.text ?? ''),
          author: String(element.actor ?? ''),
          created: new Date(Number((element.created as { time?: unknown } | undefined)?.time ?? 0)).toISOString(),
          replyTo: typeof element.parentComment === 'string' ? element.parentComment : null,
        }),
      )
      .sort((a, b) => a.created.localeCompare(b.created));
  },

  async reply(ctx, networkPostId, commentId, text) {
    const comments = await linkedinEngagement.comments!(ctx, networkPostId);
    if (!Array.isArray(comments)) return comments;
    if (!comments.some((comment) => comment.id === commentId)) return failure(490, 'No such comment under this post.');
    const token = await tokenOf(ctx);
    if (typeof token !== 'string') return token;
    const answer = await callLinkedIn(ctx, token, 'POST', `${base(ctx)}/socialActions/${enc(commentId)}/comments`, {
      json: { actor: authorOf(ctx), object: networkPostId, parentComment: commentId, message: { text } },
    });
    const id = answer.headers.get('x-restli-id');
    if (answer.status === 201 && id) return { kind: 'done', id };
    return readFailure(answer);
  },
};
