/**
 * @module
 * The sandbox TikTok Display API at `/sandbox/tiktok`, in TikTok's wire format (the creator's Bearer token):
 * - `POST /v2/video/query/?fields=id,view_count,…` `{filters: {video_ids: […]}}` (1-20 ids) →
 *   `{data: {videos: [{id, …the fields asked}]}, error: {code: "ok"}}`: the creator's own published videos only.
 * - `GET /v2/user/info/?fields=follower_count,following_count,likes_count,video_count` → `{data: {user}, error}`.
 * Counts grow with the service clock; the creator's analytics fault (insights-faults.ts) applies: `down` → 500
 * internal_error, `444` → 429 rate_limit_exceeded, `475` → 401 scope_not_authorized, `partial` → the first count
 * missing. Errors: `{data: {}, error: {code, message, log_id}}`.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomBytes } from 'node:crypto';
import { sandboxPostMetrics } from './engagement-store.js';
import { grownMetrics } from './insight-metrics.js';
import { insightsFaultOf, type InsightsFault } from './insights-faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { answerOwnErrors } from './own-errors.js';
import { TikTokError } from './tiktok-api.js';

const MAX_IDS = 20;
/** Per hour, under TikTok's names. */
const VIDEO_RATES = { view_count: 300, like_count: 25, comment_count: 5, share_count: 3 };
const USER_RATES = { follower_count: 12, following_count: 1, likes_count: 30 };

const FAULT_ERRORS: Partial<Record<InsightsFault, TikTokError>> = {
  down: new TikTokError(500, 'internal_error', 'Something went wrong. Please try again later.'),
  '444': new TikTokError(429, 'rate_limit_exceeded', 'API rate limit was exceeded.'),
  '475': new TikTokError(401, 'scope_not_authorized', 'The user did not authorize the scope required for completing this request.'),
};

export function sandboxTiktokEngagementRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const logId = () => randomBytes(12).toString('hex');

  answerOwnErrors(routes, TikTokError, (error, c) => c.json({ data: {}, error: { code: error.code, message: error.message, log_id: logId() } }, error.status as ContentfulStatusCode));

  /** The creator of the token, after its analytics fault. */
  async function creatorOf(c: Context<SandboxEnv>): Promise<{ creator: string; fault: InsightsFault | undefined }> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, 'tiktok', 'access', now);
    if (!check.ok || !check.accountId) throw new TikTokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    const fault = insightsFaultOf(deps.storage, 'tiktok', check.accountId);
    const failed = fault && FAULT_ERRORS[fault];
    if (failed) throw failed;
    return { creator: check.accountId, fault };
  }

  const fieldsOf = (c: Context<SandboxEnv>) => (c.req.query('fields') ?? '').split(',').filter(Boolean);
  const pick = (source: Record<string, unknown>, fields: string[]) => Object.fromEntries(fields.filter((field) => field in source).map((field) => [field, source[field]]));
  const ok = (c: Context<SandboxEnv>, data: Record<string, unknown>) => c.json({ data, error: { code: 'ok', message: '', log_id: logId() } });

  routes.post('/v2/video/query/', async (c) => {
    const { creator, fault } = await creatorOf(c);
    const body = (await c.req.json().catch(() => null)) as { filters?: { video_ids?: unknown } } | null;
    const ids = body?.filters?.video_ids;
    const fields = fieldsOf(c);
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_IDS || ids.some((id) => typeof id !== 'string' || id.length > 40) || containsNul(ids) || fields.length === 0) {
      throw new TikTokError(400, 'invalid_params', `fields and filters.video_ids (1 to ${MAX_IDS}) are required.`);
    }
    const videos = [];
    for (const id of ids as string[]) {
      const post = await store().findByNetworkId('tiktok', creator, id);
      if (!post || post.deletedAt !== null || post.status !== 'published') continue;
      const { metrics } = sandboxPostMetrics(VIDEO_RATES, post, deps.clock(), fault);
      const video = {
        id,
        title: post.text.slice(0, 150),
        video_description: post.text,
        create_time: Math.floor(post.createdAt / 1000),
        share_url: `${deps.config.publicUrl}/sandbox/net/tiktok/p/${id}`,
        ...metrics,
      };
      videos.push(pick(video, fields));
    }
    return ok(c, { videos, cursor: 0, has_more: false });
  });

  routes.get('/v2/user/info/', async (c) => {
    const { creator, fault } = await creatorOf(c);
    const posts = await store().listForAccounts([{ platform: 'tiktok', accountId: creator }], 1000);
    const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
    const user: Record<string, unknown> = {
      open_id: creator,
      display_name: `Sandbox creator ${creator}`,
      ...grownMetrics(USER_RATES, first, deps.clock(), 100),
      video_count: posts.filter((post) => post.deletedAt === null).length,
    };
    if (fault === 'partial') delete user.follower_count;
    return ok(c, { user: pick(user, fieldsOf(c)) });
  });

  return routes;
}
