/**
 * @module
 * The sandbox LinkedIn REST API's reads after a post is out, at `/sandbox/linkedin`, in LinkedIn's wire format (the
 * member's Bearer token and the versioned headers, as linkedin-api.ts):
 * - `GET /rest/memberCreatorPostAnalytics?q=entity&entity=(share:{urn})&queryType=IMPRESSION|MEMBERS_REACHED|
 *   REACTION|COMMENT|RESHARE&aggregation=TOTAL` → `{elements: [{count, metricType}]}`; the member's own posts only
 *   (404 otherwise).
 * - `GET /rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity={org}&shares=List(…)`
 *   → `{elements: [{share, organizationalEntity, totalShareStatistics}]}`. The sandbox member administers one
 *   organization, `urn:li:organization:{member id}`, whose shares are the member's (403 for any other).
 * - `GET /rest/memberFollowersCount?q=me` → `{elements: [{memberFollowersCount}]}`;
 *   `GET /rest/networkSizes/{org}?edgeType=COMPANY_FOLLOWED_BY_MEMBER` → `{firstDegreeSize}`.
 * - `GET /rest/posts/{urn}` → the post; `GET /rest/socialActions/{urn}/comments` → `{elements: [{id, commentUrn,
 *   actor, message, created, parentComment?, object}]}` (the audience's comments and the member's);
 *   `POST /rest/socialActions/{comment urn}/comments {actor, object, parentComment, message}` → 201 and the new
 *   comment's URN in `x-restli-id` (a post URN there is linkedin-api.ts's first comment).
 * Numbers grow with the service clock; the member's analytics fault (insights-faults.ts) applies to the analytics
 * paths: `down` → 503, `444` → 429, `475` → 403 ACCESS_DENIED, `partial` → the IMPRESSION query fails (500).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { addReply, commentsUnder, findComment } from './engagement-store.js';
import { grownMetrics } from './insight-metrics.js';
import { insightsFaultOf } from './insights-faults.js';
import { containsNul } from './input-guards.js';
import { authorizeLinkedInRequest, error as linkedInError, LinkedInError } from './linkedin-api.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxPost } from './store.js';
import { answerOwnErrors } from './own-errors.js';

/** Per hour, per member metric type. */
const MEMBER_RATES: Record<string, number> = { IMPRESSION: 80, MEMBERS_REACHED: 60, REACTION: 7, COMMENT: 2, RESHARE: 1 };
/** Per hour, under `totalShareStatistics` names. */
const ORGANIZATION_RATES = { impressionCount: 80, uniqueImpressionsCount: 60, clickCount: 6, likeCount: 7, commentCount: 2, shareCount: 1 };
const FOLLOWER_RATE = { followers: 3 };
const METRIC_TYPE_KEY = 'com.linkedin.adsexternalapi.memberanalytics.v1.CreatorPostAnalyticsMetricTypeV1';

const personOf = (accountId: string) => `urn:li:person:${accountId}`;
const organizationOf = (accountId: string) => `urn:li:organization:${accountId}`;
const commentUrnOf = (post: SandboxPost, commentId: string) => `urn:li:comment:(${post.networkId},${commentId})`;

export function sandboxLinkedInEngagementRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const db = () => deps.storage.driver;

  answerOwnErrors(routes, LinkedInError, (err, c) => c.json(err.body, err.status as ContentfulStatusCode));

  /** The member, after the analytics fault switched on for it. */
  async function analyticsCaller(c: Context<SandboxEnv>) {
    const accountId = await authorizeLinkedInRequest(deps, c);
    const fault = insightsFaultOf(deps.storage, 'linkedin', accountId);
    if (fault === 'down') throw linkedInError(503, 'Service Unavailable');
    if (fault === '444') throw linkedInError(429, 'Resource level throttle MEMBER DAY limit for calls to this resource is reached.', { code: 'TOO_MANY_REQUESTS' });
    if (fault === '475') throw linkedInError(403, 'Not enough permissions to access: memberCreatorPostAnalytics', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    return { accountId, fault };
  }

  const memberPost = async (accountId: string, urn: string) => {
    const post = await store().findByPlatformId('linkedin', urn);
    return post && post.deletedAt === null && post.accountId === accountId ? post : null;
  };

  const followersOf = async (accountId: string) => {
    const posts = await store().listForAccounts([{ platform: 'linkedin', accountId }], 1000);
    const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
    return grownMetrics(FOLLOWER_RATE, first, deps.clock(), 100).followers!;
  };

  routes.get('/rest/memberCreatorPostAnalytics', async (c) => {
    const { accountId, fault } = await analyticsCaller(c);
    const entity = /^\((share|ugc):(urn:li:(?:share|ugcPost):\d{1,30})\)$/.exec(c.req.query('entity') ?? '');
    const type = c.req.query('queryType') ?? '';
    if (c.req.query('q') !== 'entity' || !entity || !(type in MEMBER_RATES) || c.req.query('aggregation') !== 'TOTAL') {
      throw linkedInError(400, 'q=entity, entity=(share:{urn}), a queryType and aggregation=TOTAL are required', { code: 'ILLEGAL_ARGUMENT' });
    }
    const post = await memberPost(accountId, entity[2]!);
    if (!post) throw linkedInError(404, `Entity ${entity[2]} not found for this member`, { code: 'NOT_FOUND' });
    if (fault === 'partial' && type === 'IMPRESSION') throw linkedInError(500, 'Internal Server Error');
    const count = grownMetrics({ [type]: MEMBER_RATES[type]! }, post.readyAt, deps.clock())[type]!;
    return c.json({ paging: { start: 0, count: 10, links: [] }, elements: [{ count, metricType: { [METRIC_TYPE_KEY]: type } }] });
  });

  routes.get('/rest/organizationalEntityShareStatistics', async (c) => {
    const { accountId, fault } = await analyticsCaller(c);
    const organization = c.req.query('organizationalEntity') ?? '';
    if (c.req.query('q') !== 'organizationalEntity') throw linkedInError(400, 'q=organizationalEntity is required', { code: 'ILLEGAL_ARGUMENT' });
    if (organization !== organizationOf(accountId)) throw linkedInError(403, `Not enough permissions to access: ${organization.slice(0, 80)}`, { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    const listOf = (name: string) => /^List\((.*)\)$/.exec(c.req.query(name) ?? '')?.[1]?.split(',').filter(Boolean) ?? [];
    const urns = [...listOf('shares'), ...listOf('ugcPosts')];
    if (urns.length > 100) throw linkedInError(400, 'At most 100 shares and ugcPosts', { code: 'ILLEGAL_ARGUMENT' });
    const elements = [];
    for (const urn of urns) {
      const post = await memberPost(accountId, urn);
      if (!post) continue;
      const totals: Record<string, number> = { ...grownMetrics(ORGANIZATION_RATES, post.readyAt, deps.clock()) };
      if (fault === 'partial') delete totals.impressionCount;
      elements.push({ [urn.startsWith('urn:li:ugcPost:') ? 'ugcPost' : 'share']: urn, organizationalEntity: organization, totalShareStatistics: { ...totals, engagement: 0.05 } });
    }
    return c.json({ paging: { start: 0, count: elements.length, links: [] }, elements });
  });

  routes.get('/rest/memberFollowersCount', async (c) => {
    const { accountId } = await analyticsCaller(c);
    if (c.req.query('q') !== 'me') throw linkedInError(400, 'q=me is required', { code: 'ILLEGAL_ARGUMENT' });
    return c.json({ paging: { start: 0, count: 10, links: [] }, elements: [{ memberFollowersCount: await followersOf(accountId) }] });
  });

  routes.get('/rest/networkSizes/:urn', async (c) => {
    const { accountId } = await analyticsCaller(c);
    if (c.req.param('urn') !== organizationOf(accountId) || c.req.query('edgeType') !== 'COMPANY_FOLLOWED_BY_MEMBER') {
      throw linkedInError(403, 'Not enough permissions to access this organization', { serviceErrorCode: 100, code: 'ACCESS_DENIED' });
    }
    return c.json({ firstDegreeSize: await followersOf(accountId) });
  });

  // A post, its comments and replies are found only through the member who wrote it (a token opens only its own
  // member's posts): another member's URN is 404, as for a post the member cannot see.
  routes.get('/rest/posts/:urn', async (c) => {
    const accountId = await authorizeLinkedInRequest(deps, c);
    const post = await store().findByPlatformId('linkedin', c.req.param('urn'));
    if (!post || post.deletedAt !== null || post.accountId !== accountId) throw linkedInError(404, 'Not Found', { code: 'NOT_FOUND' });
    return c.json({ id: post.networkId, ...post.record, publishedAt: post.createdAt, lastModifiedAt: post.createdAt });
  });

  routes.get('/rest/socialActions/:urn/comments', async (c) => {
    const accountId = await authorizeLinkedInRequest(deps, c);
    const post = await store().findByPlatformId('linkedin', c.req.param('urn'));
    if (!post || post.deletedAt !== null || post.accountId !== accountId) throw linkedInError(404, 'Not Found', { code: 'NOT_FOUND' });
    const comments = await commentsUnder(db(), post.id);
    const elements = comments.map((comment) => ({
      id: comment.id,
      commentUrn: commentUrnOf(post, comment.id),
      $URN: commentUrnOf(post, comment.id),
      actor: comment.author ? personOf(comment.author) : personOf(post.accountId),
      message: { text: comment.text },
      created: { actor: personOf(comment.author ?? accountId), time: comment.createdAt },
      lastModified: { time: comment.createdAt },
      object: post.networkId,
      ...(comment.replyTo && { parentComment: commentUrnOf(post, comment.replyTo) }),
    }));
    return c.json({ paging: { start: 0, count: elements.length, total: elements.length }, elements });
  });

  routes.post('/rest/socialActions/:urn/comments', async (c, next) => {
    const parent = /^urn:li:comment:\((urn:li:(?:share|ugcPost):\d{1,30}),(sbc_[\w-]{1,60})\)$/.exec(c.req.param('urn'));
    if (!parent) return next();
    const accountId = await authorizeLinkedInRequest(deps, c);
    const body = (await c.req.json().catch(() => null)) as { actor?: unknown; object?: unknown; parentComment?: unknown; message?: { text?: unknown } } | null;
    const text = body?.message?.text;
    if (!body || body.actor !== personOf(accountId) || body.parentComment !== c.req.param('urn') || body.object !== parent[1] || typeof text !== 'string' || text.trim() === '' || containsNul(text)) {
      throw linkedInError(400, '/actor, /object, /parentComment and /message/text are required', { code: 'ILLEGAL_ARGUMENT' });
    }
    const comment = await findComment(db(), 'linkedin', parent[2]!);
    if (!comment || comment.networkPostId !== parent[1] || comment.accountId !== accountId) throw linkedInError(404, 'Not Found', { code: 'NOT_FOUND' });
    const id = await addReply(db(), comment.postId, text, comment.id, deps.clock());
    return c.body(null, 201, { 'x-restli-id': `urn:li:comment:(${parent[1]},${id})` });
  });

  return routes;
}
