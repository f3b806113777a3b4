/**
 * @module
 * The analytics API (spec 2.7, 4.4), with the API key (and `Profile-Key`):
 * - `POST /api/analytics/post` `{id}` (a service post id: every analytics network it was published on, or those
 *   of `platforms`) | `{id | postIds (≤ 100), platforms: [one network], searchPlatformId: true}` (network post ids)
 * - `GET /api/analytics/post/:id/history`: a service post's stored snapshots per network, oldest first (the last
 *   30 days; history for charts, not subject to the 4-day rule, which is about answering for the network)
 * - `POST /api/analytics/social` `{platforms}`: account-level analytics per network
 * Answers are keyed by network. Once the month's post quota is used, analytics answer 106 too (spec 7).
 */
import { Hono, type Context } from 'hono';
import { ANALYTICS_PLATFORMS, PostAnalyticsRequest, SocialAnalyticsRequest, type AnalyticsPlatform } from '@social-link-kit/protocol/analytics/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { assertQuotaLeft } from '../publishing/post-quota.js';
import type { Publishing } from '../publishing/publishing.js';
import { notFound } from '../publishing/post-answer.js';
import { requestError } from '../publishing/request-errors.js';
import type { Analytics } from './analytics.js';
import { appCredentialsFor, appCredentialsOf } from '../networks/app-credentials.js';
import { describe, NOT_FOUND, jsonAnswer } from '../core/openapi/describe.js';
import { PostAnalyticsResponse, SocialAnalyticsResponse } from '@social-link-kit/protocol/analytics/index.js';

const ACTION = 'analytics';
/** How far back the history of a post's analytics goes. */
const HISTORY_DAYS = 30;

function isAnalyticsPlatform(name: string): name is AnalyticsPlatform {
  return (ANALYTICS_PLATFORMS as readonly string[]).includes(name);
}

function platformsError(message: string): ApiError {
  return new ApiError(400, 163, message, { action: ACTION, details: { validValues: ANALYTICS_PLATFORMS } });
}

/** `platforms` as given, each one an analytics network (163 otherwise). */
function analyticsPlatforms(platforms: string[]): AnalyticsPlatform[] {
  const unknown = platforms.filter((name) => !isAnalyticsPlatform(name));
  if (unknown.length > 0) throw platformsError(`Analytics are available for ${ANALYTICS_PLATFORMS.join(', ')}; not for ${unknown.join(', ').slice(0, 200)}.`);
  return [...new Set(platforms)] as AnalyticsPlatform[];
}

/** Spec 5.6: a read on a network that signs with the integrator's own app needs it in the headers (419 otherwise). */
const appsOf = (c: Context<AppEnv>, platforms: readonly string[]) => appCredentialsOf(platforms, (name) => c.req.header(name), ACTION);

export function analyticsRoutes(deps: Pick<AppDeps, 'config' | 'clock'>, publishing: Publishing, analytics: Analytics): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { service } = analytics;

  routes.post('/post', describe({ summary: 'Analytics of posts, by service post id or by network post id', tag: 'Analytics', auth: 'apiKeyAndProfileKey', origin: 'spec', request: PostAnalyticsRequest, response: PostAnalyticsResponse, name: 'PostAnalyticsResponse', errors: [163, 186, NOT_FOUND] }), async (c) => {
    const parsed = PostAnalyticsRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const request = parsed.data;
    const profile = c.get('profile');
    if ((request.id === undefined) === (request.postIds === undefined)) throw badRequest('Send either `id` or `postIds`.', undefined, ACTION);
    await assertQuotaLeft(publishing.store.db, profile.id, c.get('account').plan, deps.clock());

    if (request.searchPlatformId !== true) {
      if (request.postIds !== undefined) {
        throw badRequest('`postIds` are network post ids: send `searchPlatformId: true` (and one network in `platforms`).', undefined, ACTION);
      }
      // A service post id: its analytics on each analytics network it was published on.
      const post = await publishing.store.findPostOfProfile(profile.id, request.id!);
      if (!post) throw notFound(request.id!);
      const wanted = request.platforms ? analyticsPlatforms(request.platforms) : null;
      const rows = (await publishing.store.listPlatforms(post.id)).filter(
        (row) => row.status === 'success' && row.networkPostId && isAnalyticsPlatform(row.platform) && (!wanted || wanted.includes(row.platform)),
      );
      if (rows.length === 0) throw badRequest(`This post has no published platform with analytics (${ANALYTICS_PLATFORMS.join(', ')}).`, { id: post.id }, ACTION);
      const apps = appsOf(c, rows.map((row) => row.platform));
      const answer: Record<string, unknown> = { id: post.id };
      let failed = false;
      for (const row of rows) {
        const [entry] = await service.posts(profile.id, row.platform, [row.networkPostId!], apps[row.platform] ?? null).catch((error: unknown) => [asEntry(row.networkPostId!, error)]);
        answer[row.platform] = { ...entry, postUrl: row.postUrl ?? '' };
        failed ||= entry!.status === 'error';
      }
      return c.json({ status: failed ? 'error' : 'success', ...answer });
    }

    // Network post ids: exactly one network, ownership checked by the network (186 when not the account's).
    if (!request.platforms || request.platforms.length !== 1) throw platformsError('Searching by network post id needs exactly one network in `platforms`.');
    const [platform] = analyticsPlatforms(request.platforms);
    const ids = request.postIds ? [...new Set(request.postIds)] : [request.id!];
    const entries = await service.posts(profile.id, platform!, ids, appCredentialsFor(platform!, (name) => c.req.header(name), ACTION));
    if (request.id !== undefined) {
      const entry = entries[0]!;
      if (entry.status === 'error' && entry.code === 186) throw new ApiError(404, 186, entry.message!, { action: ACTION, details: { id: request.id.slice(0, 64), platform } });
      return c.json({ status: entry.status, [platform!]: entry });
    }
    return c.json({ status: entries.some((entry) => entry.status === 'error') ? 'error' : 'success', [platform!]: entries });
  });

  routes.get('/post/:id/history', describe({ summary: "A service post's stored analytics snapshots per network (last days)", tag: 'Analytics', auth: 'apiKeyAndProfileKey', response: jsonAnswer('`{status, id, <platform>: [{takenAt, analytics}]}`'), errors: [NOT_FOUND] }), async (c) => {
    const profile = c.get('profile');
    const post = await publishing.store.findPostOfProfile(profile.id, c.req.param('id'));
    if (!post) throw notFound(c.req.param('id'));
    const since = deps.clock() - HISTORY_DAYS * 24 * 60 * 60 * 1000;
    const answer: Record<string, unknown> = {};
    for (const row of await publishing.store.listPlatforms(post.id)) {
      if (!row.networkPostId || !isAnalyticsPlatform(row.platform)) continue;
      const snapshots = await analytics.store.recent(profile.id, row.platform, row.networkPostId, since, 500);
      answer[row.platform] = snapshots.reverse().map((snapshot) => ({ takenAt: new Date(snapshot.takenAt).toISOString(), analytics: snapshot.metrics }));
    }
    return c.json({ status: 'success', id: post.id, ...answer });
  });

  routes.post('/social', describe({ summary: 'Account analytics of the linked networks', tag: 'Analytics', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'body and answer fields', request: SocialAnalyticsRequest, response: SocialAnalyticsResponse, name: 'SocialAnalyticsResponse', errors: [163, 444, 475] }), async (c) => {
    const parsed = SocialAnalyticsRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const profile = c.get('profile');
    const platforms = analyticsPlatforms(parsed.data.platforms);
    await assertQuotaLeft(publishing.store.db, profile.id, c.get('account').plan, deps.clock());
    const apps = appsOf(c, platforms);
    // One network: its failure is the answer's (444 as a 429, 475 as a 403). Several: each says for itself.
    if (platforms.length === 1) return c.json({ status: 'success', [platforms[0]!]: await service.account(profile.id, platforms[0]!, apps[platforms[0]!] ?? null) });
    const answer: Record<string, unknown> = {};
    let failed = false;
    for (const platform of platforms) {
      answer[platform] = await service.account(profile.id, platform, apps[platform] ?? null).catch((error: unknown) => {
        failed = true;
        return asEntry(undefined, error);
      });
    }
    return c.json({ status: failed ? 'error' : 'success', ...answer });
  });

  return routes;
}

/** A network's failure as an entry of a multi-network answer. */
function asEntry(id: string | undefined, error: unknown) {
  if (!(error instanceof ApiError)) throw error;
  return { ...(id !== undefined && { id }), status: 'error' as const, code: error.code, message: error.message, ...(error.details !== undefined && { details: error.details }) };
}
