/**
 * @module
 * The posts API (DESIGN.md 3), with the API key (and `Profile-Key` for a user profile):
 * - `POST /api/post` create · `POST /api/validate/post` the same checks, nothing stored or published
 * - `GET /api/post/:id` · `GET /api/post/:id/attempts` (its timeline, issue 30) · `PATCH /api/post` `{id, approved?, scheduleDate?, scheduledPause?, notes?}`
 * - `DELETE /api/post` `{id}` | `{bulk: [ids]}` | `{autoRepostId}` · `PUT /api/post/retry` `{id}`
 * - `GET /api/history` `?status&lastDays&limit&platforms&startDate&endDate&autoRepostId&type`
 * Once the month's post quota is used, get, delete and retry answer 106 too (spec 7).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { NETWORKS, isNetwork, type Network } from '@social-link-kit/protocol';
import { HistoryQuery, PostAttemptsResponse, UpdatePostRequest } from '@social-link-kit/protocol/publishing/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import type { Publishing } from './publishing.js';
import type { PostService } from './post-service.js';
import type { IncomingMessage } from 'node:http';
import { getQueryParam } from 'hono/utils/url';
import { authenticateIncoming, authenticateIncomingWith, CallerWithAnswer, type ApiCaller } from '../accounts/api-key-auth.js';
import type { HistoryFilter } from './post-reads.js';
import { JsonText, JsonWithStatus, type RawRoute } from '../core/http/raw-listener.js';
import { fetchHeader, readJsonBody } from '../core/http/raw-request.js';
import type { Profile } from '../core/db/storage-types.js';
import { assertQuotaLeft, quotaAndCount } from './post-quota.js';
import { CAPACITY_BUDGETS, capacityAt } from './capacity.js';
import { requestError } from './request-errors.js';
import { parseScheduleDate } from './rules/schedule-date.js';
import { sealedAppFields } from '../networks/app-credentials.js';
import { describe, jsonAnswer, NOT_FOUND } from '../core/openapi/describe.js';
import { PostRequest } from '@social-link-kit/protocol/publishing/post-request.js';
import { CreatePostResponse, DeletePostResponse, HistoryResponse, PostRecordSchema, RetryPostResponse, UpdatePostResponse, ValidatePostResponse } from '@social-link-kit/protocol/publishing/post-api.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const postId = z.string().min(1).max(100);

const UpdateRequest = UpdatePostRequest;
const DeleteRequest = z.union([
  z.strictObject({ id: postId }),
  z.strictObject({ bulk: z.array(postId).min(1).max(100) }),
  z.strictObject({ autoRepostId: z.string().min(1).max(100) }),
]);
const RetryRequest = z.strictObject({ id: postId });

export function postRoutes(deps: Pick<AppDeps, 'config' | 'clock' | 'tokenCipher'>, publishing: Publishing): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { service, store } = publishing;
  const quotaLeft = (c: { get(key: 'profile'): AppEnv['Variables']['profile']; get(key: 'account'): AppEnv['Variables']['account'] }) =>
    assertQuotaLeft(store.db, c.get('profile').id, c.get('account').plan, deps.clock());

  // Spec 5.6: a request bound for a network that signs with the integrator's own app carries that app (the
  // network's 419 otherwise), sealed into the post. Delete and retry ask for it only for the networks they touch.
  const appFieldsOf = (c: Context<AppEnv>, action: string) => (platforms: readonly unknown[]) =>
    sealedAppFields(deps.tokenCipher, c.get('profile').id, platforms, (name) => c.req.header(name), action);
  const platformsOf = (body: Record<string, unknown>) => (Array.isArray(body.platforms) ? body.platforms : []);

  routes.post('/post', describe({ summary: 'Create a post (now, scheduled or held for approval)', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/post', request: PostRequest, response: CreatePostResponse, name: 'CreatePostResponse', errors: [105, 106, 137, 140, 163, 164, 182, 275, 307, 419, 447, 448, 449, 450, 451, 499, 510, 514] }), async (c) => {
    const result = await createPost(deps, service, { account: c.get('account'), profile: c.get('profile') }, await readJsonObject(c, deps.config.maxBodyBytes, 'post'), (name) => c.req.header(name));
    return c.json(result.body, result.httpStatus);
  });

  routes.post('/validate/post', describe({ summary: 'Check a post body; nothing is stored or published', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/validate/post', request: PostRequest, response: ValidatePostResponse, name: 'ValidatePostResponse', errors: [105, 106, 137, 140, 163, 164, 182, 275, 307, 419, 447, 448, 449, 450, 451, 499, 514] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, 'post');
    appFieldsOf(c, 'post')(platformsOf(body));
    const result = await service.create(c.get('account'), c.get('profile'), body, { dryRun: true });
    return c.json({ status: 'success', validated: true, refId: result.body.refId, ...result.preview });
  });

  // The answers are JSON text (kept in memory by the service): written as c.json would write them.
  routes.get('/post/:id', describe({ summary: 'Read a post', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/post/{id}', response: PostRecordSchema, name: 'PostRecord', errors: [106, NOT_FOUND] }), async (c) =>
    c.body(await service.reads.getAnswer(c.get('account'), c.get('profile'), c.req.param('id'), deps.clock()), 200, JSON_TYPE),
  );

  routes.get('/post/:id/attempts', describe({ summary: "A post's timeline: every attempt per network (when, trigger, the network's code and message, retry time, reconcile verdict)", tag: 'Posts', auth: 'apiKeyAndProfileKey', response: PostAttemptsResponse, name: 'PostAttemptsResponse', errors: [NOT_FOUND] }), async (c) => {
    // The profile's own post only (404 as for GET /post/:id otherwise).
    const post = await service.get(c.get('profile'), c.req.param('id'));
    const attempts = await publishing.attemptLog.list(post.id);
    return c.json({ status: 'success' as const, id: post.id, attempts } satisfies PostAttemptsResponse);
  });

  routes.patch('/post', describe({ summary: 'Approve, pause, reschedule or annotate a post', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id, approved?, scheduledPause?, scheduleDate?, notes?, youTubeOptions?}', request: UpdateRequest, response: UpdatePostResponse, name: 'UpdatePostResponse', errors: [NOT_FOUND] }), async (c) => {
    const parsed = UpdateRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, 'post'));
    if (!parsed.success) throw requestError(parsed.error, 'post');
    const { status, ...record } = await service.update(c.get('profile'), parsed.data);
    return c.json({ status: 'success', postStatus: status, ...record });
  });

  routes.delete('/post', describe({ summary: 'Delete a post ({id}, {bulk} or {autoRepostId})', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id} | {bulk: [ids]} | {autoRepostId}', request: DeleteRequest, response: DeletePostResponse, name: 'DeletePostResponse', errors: [106, 419, NOT_FOUND] }), async (c) => {
    const parsed = DeleteRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, 'post'));
    if (!parsed.success) throw requestError(parsed.error, 'post');
    await quotaLeft(c);
    const profile = c.get('profile');
    const request = parsed.data;
    const ids = 'id' in request ? [request.id] : 'bulk' in request ? [...new Set(request.bulk)] : await service.seriesIds(profile, request.autoRepostId);
    const results = await service.remove(profile, ids, appFieldsOf(c, 'delete'));
    const failed = results.filter((r) => r.status === 'error');
    if ('id' in request && failed.length === 1) throw new ApiError(404, 101, failed[0]!.message ?? 'Not deleted.', { action: 'delete', details: { id: request.id } });
    const single = results.length === 1 ? { ...results[0], postStatus: results[0]!.status } : {};
    // Spec 7: an answer whose status is `error` is the whole envelope (some posts of a bulk or series not deleted).
    const envelope = failed.length > 0 && { action: 'delete', code: 101, message: `${failed.length} of ${results.length} posts were not deleted; see posts.` };
    return c.json({ ...single, status: failed.length > 0 ? 'error' : 'success', ...envelope, posts: results });
  });

  routes.put('/post/retry', describe({ summary: 'Retry a post in error, once', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id}', request: RetryRequest, response: RetryPostResponse, name: 'RetryPostResponse', errors: [105, 106, 419, NOT_FOUND] }), async (c) => {
    const parsed = RetryRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, 'post'));
    if (!parsed.success) throw requestError(parsed.error, 'post');
    await quotaLeft(c);
    const { status, ...result } = await service.retry(c.get('profile'), parsed.data.id, appFieldsOf(c, 'post'));
    return c.json({ status: 'success', postStatus: status, ...result });
  });

  // Issue 30: the networks' rolling budgets as a post due at `at` (default now) would meet them (capacity.ts).
  routes.get('/capacity', describe({ summary: "The networks' rolling per-account budgets as a post due at `at` would meet them (query: platform, at); a scheduled post over one is refused at create", tag: 'Posts', auth: 'apiKeyAndProfileKey', response: jsonAnswer('`{status, at, capacity: [{platform, budget, describes, limit, windowMs, used, availableAt}]}`'), errors: [101] }), async (c) => {
    const asked = c.req.query('at') === undefined ? null : parseScheduleDate(c.req.query('at'));
    if (asked && !asked.ok) throw badRequest(`at: ${asked.message}`, { field: 'at' }, 'capacity');
    const at = asked ? asked.epochMs : deps.clock();
    const platform = c.req.query('platform');
    if (platform !== undefined && !isNetwork(platform)) throw badRequest('platform must be a network name.', { field: 'platform' }, 'capacity');
    const platforms = platform !== undefined ? [platform] : [...new Set(CAPACITY_BUDGETS.map((budget) => budget.platform))];
    const entries = (await Promise.all(platforms.map((p) => capacityAt(store.db, c.get('profile').id, p, at)))).flat();
    return c.json({
      status: 'success' as const,
      at: new Date(at).toISOString(),
      capacity: entries.map((e) => ({ platform: e.platform, budget: e.name, describes: e.describes, limit: e.limit, windowMs: e.windowMs, used: e.used, availableAt: new Date(e.availableAt).toISOString() })),
    });
  });

  routes.get('/history', describe({ summary: 'Post history', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/history', query: HistoryQuery, response: HistoryResponse, name: 'HistoryResponse', errors: [163] }), async (c) =>
    c.body(await historyAnswer(deps, service, c.get('profile'), c.req.query()), 200, JSON_TYPE),
  );

  return routes;
}

const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * `GET /api/post/:id` and `GET /api/history` served below Hono (core/http/raw-listener.ts), by the same functions
 * as the Hono routes above and the same API-key check as their middleware (logged under its pattern when it refuses).
 * On PostgreSQL, which keeps neither the caller nor the answer in memory (accounts/caller-cache.ts,
 * core/db/read-memory.ts), the key's check reads the caller in the answer's own statement: one round trip.
 */
export function postReadRawRoutes(deps: Pick<AppDeps, 'storage' | 'clock'>, publishing: Publishing): RawRoute<ApiCaller>[] {
  const { service } = publishing;
  const authenticate = (incoming: IncomingMessage) => authenticateIncoming(deps, incoming);
  const oneStatement = deps.storage.kind === 'postgres';
  const queryOf = (incoming: IncomingMessage) => getQueryParam(`http://localhost${incoming.url}`) as Record<string, string>;
  return [
    {
      method: 'GET',
      path: '/api/post/',
      hasParam: true,
      pattern: '/api/post/:id',
      authPattern: '/api/post/*',
      authenticate: oneStatement ? (incoming, id) => authenticateIncomingWith(incoming, (key) => service.reads.postAnswerAsKey(key, id, deps.clock())) : authenticate,
      answer: async (caller, id) => new JsonText(caller instanceof CallerWithAnswer ? caller.answer() : await service.reads.getAnswer(caller.account, caller.profile, id, deps.clock())),
    },
    {
      method: 'GET',
      path: '/api/history',
      hasParam: false,
      plainQuery: true,
      pattern: '/api/history',
      authPattern: '/api/history',
      authenticate: oneStatement
        ? (incoming) => {
            let request: HistoryRequest;
            try {
              request = historyRequest(deps, queryOf(incoming));
            } catch {
              // The query's 400 is answered after the key's check, as on the Hono path: by `answer` below.
              return authenticate(incoming);
            }
            return authenticateIncomingWith(incoming, (key) => service.reads.historyAnswerAsKey(key, request.filter, request.platforms));
          }
        : authenticate,
      // Hono's own query reader (what c.req.query() runs), on the path as the listener got it.
      answer: async (caller, _param, incoming) =>
        new JsonText(caller instanceof CallerWithAnswer ? caller.answer() : await historyAnswer(deps, service, caller.profile, queryOf(incoming))),
    },
  ];
}

/** `POST /api/post` after its API-key check, on either path: the body's networks' own apps sealed (419 first), then the post created. */
async function createPost(deps: Pick<AppDeps, 'tokenCipher'>, service: PostService, caller: Pick<ApiCaller, 'account' | 'profile'>, body: Record<string, unknown>, header: (name: string) => string | undefined) {
  const platforms = Array.isArray(body.platforms) ? body.platforms : [];
  const appFields = sealedAppFields(deps.tokenCipher, caller.profile.id, platforms, header, 'post');
  return service.create(caller.account, caller.profile, body, { appFields });
}

/**
 * `POST /api/post` served below Hono (issue 31: an immediate post's request spends less before and after its
 * networks), by the same function as the Hono route and the same API-key check as its middleware.
 */
export function postCreateRawRoutes(deps: Pick<AppDeps, 'storage' | 'clock' | 'config' | 'tokenCipher'>, publishing: Publishing): RawRoute<ApiCaller>[] {
  return [
    {
      method: 'POST',
      path: '/api/post',
      hasParam: false,
      pattern: '/api/post',
      authPattern: '/api/post',
      authenticate: (incoming) => authenticateIncoming(deps, incoming),
      answer: async (caller, _param, incoming) => {
        const result = await createPost(deps, publishing.service, caller, await readJsonBody(incoming, deps.config.maxBodyBytes, 'post'), (name) => fetchHeader(incoming, name.toLowerCase()));
        return result.httpStatus === 200 ? result.body : new JsonWithStatus(result.httpStatus, result.body);
      },
    },
  ];
}

/** `GET /api/history` for the query's parameters (as Hono's `c.req.query()` reads them), as JSON text. */
export async function historyAnswer(deps: Pick<AppDeps, 'clock'>, service: PostService, profile: Profile, raw: Record<string, string>): Promise<string> {
  const { queryKey, filter, platforms } = historyRequest(deps, raw);
  return service.reads.historyAnswer(profile, queryKey, filter, platforms);
}

interface HistoryRequest {
  /** The query as sent, to key a kept answer on. */
  queryKey: string;
  filter: HistoryFilter;
  platforms: Network[] | null;
}

/** What `GET /api/history`'s query asks for, or the 400 to answer. */
function historyRequest(deps: Pick<AppDeps, 'clock'>, raw: Record<string, string>): HistoryRequest {
  const parsed = HistoryQuery.safeParse(raw);
  if (!parsed.success) throw requestError(parsed.error, 'history');
  const query = parsed.data;
  const now = deps.clock();
  let platforms: Network[] | null = null;
  if (query.platforms !== undefined) {
    const names = query.platforms.split(',').map((name) => name.trim()).filter(Boolean);
    const unknown = names.filter((name) => !isNetwork(name));
    if (names.length === 0 || unknown.length > 0) {
      throw new ApiError(400, 163, '"platforms" must be a comma-separated list of networks.', { action: 'history', details: { validValues: NETWORKS } });
    }
    platforms = names as Network[];
  }
  const date = (value: string | undefined, field: string) => {
    if (value === undefined) return undefined;
    const parsedDate = parseScheduleDate(value);
    if (!parsedDate.ok) throw badRequest(parsedDate.message.replace('scheduleDate', field), { field }, 'history');
    return parsedDate.epochMs;
  };
  const lastDays = query.lastDays ?? 30;
  const startDate = date(query.startDate, 'startDate');
  const since = startDate ?? (lastDays === 0 ? undefined : now - lastDays * DAY_MS);
  const filter = {
    ...(query.status && { status: query.status }),
    ...(since !== undefined && { since }),
    ...(query.endDate !== undefined && { until: date(query.endDate, 'endDate') }),
    ...(query.autoRepostId && { autoRepostId: query.autoRepostId }),
    ...(query.type && { type: query.type }),
    limit: query.limit ?? 25,
  };
  return { queryKey: JSON.stringify(query), filter, platforms };
}

/** `monthlyPostQuota` and `monthlyPostCount` for `GET /api/user`. */
export async function postQuotaSummary(publishing: Publishing, profileId: string, plan: AppEnv['Variables']['account']['plan'], now: number) {
  const { quota, count } = await quotaAndCount(publishing.store.db, profileId, plan, now);
  return { monthlyPostQuota: quota, monthlyPostCount: count };
}
