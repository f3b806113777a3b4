/**
 * @module
 * What the generic sandbox networks answer after a post is out, at `/sandbox/net/{platform}`; every call but the
 * audience's carries `Authorization: Bearer <the account's access token>`:
 * - `GET  /insights?accountId=&ids=a,b` (≤ 100 ids) → `{data: [{id, found, owned, metrics, errors: [{metric}], limited?, title…}]}`
 * - `GET  /accounts/{accountId}/insights` → `{metrics, errors}`
 * - `GET  /posts/{id}/comments` → `{comments: [{id, text, author, createdAt, replyTo}]}`
 * - `POST /posts/{id}/replies` `{commentId, text}` → `{id}`
 * - `POST /p/{id}/audience-comments` `{author, text}` → `{id}`: someone in the audience comments (no token: it is
 *   how a test or the demo makes comments appear)
 * - `POST /comments/{commentId}/private-replies` `{text}` → `{id}` (instagram, facebook): a private message to the
 *   commenter. Refused with 491 when the comment is older than 7 days or was already answered; a comment text with
 *   `[[fault:490]]`…`[[fault:495]]` gets that code.
 * - `POST /accounts/{accountId}/audience-messages` `{text, author?}` → `{id}`: someone sends the account a message.
 * Audience comments and messages reach the service as the network's events would (network-events.ts): a job
 * on the service's jobs table, which fires the `comments`, `messages` and `automations` webhooks.
 * The test switches below (audience comments and messages, insights faults) take the API key of the integrator
 * whose profile linked the account (switch-auth.ts).
 * - `PUT  /accounts/{accountId}/insights-fault` `{fault}`: how the account's analytics fail from now on, like a
 *   payment sandbox's test switches: `partial` (some metrics error), `down` (503), `444` (facebook page
 *   throttle, 429), `475` (linkedin member scopes missing, 403), `limited` (instagram pre-conversion posts), null.
 * Metrics grow with the service clock (insight-metrics.ts). Errors: `{error: {code, message}}`.
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { newId } from '../../core/tokens.js';
import { GENERIC_SANDBOX_NETWORKS, type GenericSandboxNetwork } from './generic-api.js';
import { ACCOUNT_METRIC_RATES, INSTAGRAM_LIMITED_METRICS, POST_METRIC_RATES, grownMetrics } from './insight-metrics.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { containsNul } from './input-guards.js';
import type { SandboxPost } from './store.js';
import { faultMarker } from './faults.js';
import { requireLinkingIntegrator } from './switch-auth.js';
import { engagementStateOf } from './engagement-state.js';
import { commentsUnder, youtubePrivacyOf, youtubeVisibleTo } from './engagement-store.js';
import { queueNetworkEvent } from '../../automations/network-events.js';
import { INSIGHTS_FAULTS, type InsightsFault } from './insights-faults.js';

const FAULTS = INSIGHTS_FAULTS;
const MAX_IDS = 100;
const PRIVATE_REPLY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** HTTP status of each private-reply refusal a comment's fault marker asks for. */
const PRIVATE_REPLY_FAULTS: Record<string, 400 | 403 | 429 | 503> = { '490': 400, '491': 400, '492': 403, '493': 429, '494': 503, '495': 400 };
const MAX_TEXT = 10_000;

function apiError(c: Context, status: 400 | 401 | 403 | 404 | 429 | 503, code: number, message: string) {
  return c.json({ error: { code, message } }, status);
}

export function sandboxEngagementApi(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const db = () => deps.storage.driver;
  // Shared with the Meta Graph sandboxes (engagement-state.ts).
  const { faults, privatelyAnswered } = engagementStateOf(deps);

  const platformOf = (c: Context): GenericSandboxNetwork | null => {
    const platform = c.req.param('platform') ?? '';
    return (GENERIC_SANDBOX_NETWORKS as readonly string[]).includes(platform) ? (platform as GenericSandboxNetwork) : null;
  };

  /** The account the bearer token belongs to; null when the token is missing, unknown, expired or another network's. */
  async function caller(c: Context, platform: string): Promise<{ accountId: string } | null> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, platform, 'access', now);
    return check.ok ? { accountId: check.accountId } : null;
  }

  /** The post `id` of the `:platform` route, when the bearer token's account owns it; else the error answer. */
  async function ownPost(c: Context, id: string): Promise<SandboxPost | Response> {
    const platform = platformOf(c);
    if (!platform) return apiError(c, 404, 101, 'No such sandbox network.');
    const auth = await caller(c, platform);
    if (!auth) return apiError(c, 401, 401, 'The access token is missing or invalid.');
    const post = await store().findByPlatformId(platform, id);
    if (!post || post.accountId !== auth.accountId) return apiError(c, 404, 186, 'No such post on this account.');
    return post;
  }

  async function readBody(c: Context): Promise<Record<string, unknown> | null> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) return null;
    return body as Record<string, unknown>;
  }

  /** The fault of the account, answered as the network would; null when the call goes through. */
  function faultAnswer(c: Context, platform: string, accountId: string) {
    const fault = faults.get(`${platform}:${accountId}`);
    if (fault === 'down') return apiError(c, 503, 503, 'Insights are temporarily unavailable.');
    if (fault === '444') return apiError(c, 429, 444, 'Page request limit reached (80001); try again later.');
    if (fault === '475') return apiError(c, 403, 475, 'This member token lacks the analytics scopes; link the profile again.');
    return null;
  }

  routes.put('/:platform/accounts/:accountId/insights-fault', async (c) => {
    const platform = platformOf(c);
    if (platform) await requireLinkingIntegrator(deps, c, platform, c.req.param('accountId'));
    const body = await readBody(c);
    const fault = body?.fault ?? null;
    if (!platform || (fault !== null && !FAULTS.includes(fault as InsightsFault))) return apiError(c, 400, 101, `fault must be one of ${FAULTS.join(', ')} or null.`);
    const key = `${platform}:${c.req.param('accountId')}`;
    if (fault === null) faults.delete(key);
    else faults.set(key, fault as InsightsFault);
    return c.json({ fault });
  });

  routes.get('/:platform/insights', async (c) => {
    const platform = platformOf(c);
    const rates = platform ? POST_METRIC_RATES[platform] : undefined;
    if (!platform || !rates) return apiError(c, 404, 101, 'This sandbox network has no post insights.');
    const auth = await caller(c, platform);
    if (!auth) return apiError(c, 401, 401, 'The access token is missing or invalid.');
    const accountId = c.req.query('accountId') ?? '';
    const ids = (c.req.query('ids') ?? '').split(',').filter(Boolean);
    if (!accountId || ids.length === 0 || ids.length > MAX_IDS || ids.some((id) => id.length > 100)) return apiError(c, 400, 101, `accountId and 1 to ${MAX_IDS} ids are required.`);
    if (auth.accountId !== accountId) return apiError(c, 403, 401, 'This token does not belong to that account.');
    const failed = faultAnswer(c, platform, accountId);
    if (failed) return failed;
    const fault = faults.get(`${platform}:${accountId}`);
    const now = deps.clock();
    const data = [];
    for (const id of ids) {
      const post = await store().findByPlatformId(platform, id);
      // A post is found only through the account that owns it (spec 4.4 rule 1), except a youtube video another
      // channel made public, which anyone may read (zero metrics); an unlisted or private one stays its channel's.
      if (!post || (post.accountId !== accountId && (platform !== 'youtube' || !youtubeVisibleTo(post, accountId)))) {
        data.push({ id, found: false, owned: false, metrics: {}, errors: [] });
        continue;
      }
      const owned = post.accountId === accountId;
      let metrics = grownMetrics(rates, post.readyAt, now);
      if (!owned) metrics = Object.fromEntries(Object.keys(metrics).map((name) => [name, 0]));
      const limited = platform === 'instagram' && fault === 'limited';
      if (limited) metrics = Object.fromEntries(Object.entries(metrics).filter(([name]) => INSTAGRAM_LIMITED_METRICS.includes(name)));
      // `partial`: the network answers, but its first two counters error (as a real insights API does per metric).
      const errored = fault === 'partial' ? Object.keys(metrics).slice(0, 2) : [];
      for (const name of errored) delete metrics[name];
      data.push({
        id,
        found: true,
        owned,
        metrics,
        errors: errored.map((metric) => ({ metric, message: 'This metric is temporarily unavailable.' })),
        ...(limited && { limited: true }),
        ...(platform === 'youtube' && youtubeSnippet(post)),
      });
    }
    return c.json({ data });
  });

  routes.get('/:platform/accounts/:accountId/insights', async (c) => {
    const platform = platformOf(c);
    const rates = platform ? ACCOUNT_METRIC_RATES[platform] : undefined;
    if (!platform || !rates) return apiError(c, 404, 101, 'This sandbox network has no account insights.');
    const accountId = c.req.param('accountId');
    const auth = await caller(c, platform);
    if (!auth) return apiError(c, 401, 401, 'The access token is missing or invalid.');
    if (auth.accountId !== accountId) return apiError(c, 403, 401, 'This token does not belong to that account.');
    const failed = faultAnswer(c, platform, accountId);
    if (failed) return failed;
    const posts = await store().listForAccounts([{ platform, accountId }], 1000);
    const live = posts.filter((post) => post.deletedAt === null);
    const first = posts.length > 0 ? Math.min(...posts.map((post) => post.createdAt)) : deps.clock();
    const metrics = grownMetrics(rates, first, deps.clock(), 100);
    for (const count of ['mediaCount', 'videoCount', 'tweetCount']) if (count in metrics) metrics[count] = live.length;
    const errored = faults.get(`${platform}:${accountId}`) === 'partial' ? Object.keys(metrics).slice(0, 1) : [];
    for (const name of errored) delete metrics[name];
    return c.json({ metrics, errors: errored.map((metric) => ({ metric, message: 'This metric is temporarily unavailable.' })) });
  });

  routes.get('/:platform/posts/:id/comments', async (c) => {
    const post = await ownPost(c, c.req.param('id'));
    if (post instanceof Response) return post;
    return c.json({
      comments: (await commentsUnder(db(), post.id)).map((comment) => ({
        id: comment.id,
        text: comment.text,
        // Comments without an author are the account's own (first comments, replies).
        author: comment.author ?? post.accountId,
        createdAt: new Date(comment.createdAt).toISOString(),
        replyTo: comment.replyTo,
      })),
    });
  });

  routes.post('/:platform/posts/:id/replies', async (c) => {
    const post = await ownPost(c, c.req.param('id'));
    if (post instanceof Response) return post;
    const body = await readBody(c);
    const text = body?.text;
    const commentId = body?.commentId;
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT || typeof commentId !== 'string') return apiError(c, 400, 101, '`commentId` and `text` are required.');
    const parent = await db().get('SELECT id FROM sandbox_comments WHERE id = ? AND post_id = ?', [commentId, post.id]);
    if (!parent) return apiError(c, 404, 490, 'No such comment under this post.');
    return c.json({ id: await insertComment(post, text, null, commentId) });
  });

  routes.post('/:platform/p/:id/audience-comments', async (c) => {
    const platform = platformOf(c);
    const post = platform ? await store().findByPlatformId(platform, c.req.param('id')) : null;
    if (!post) return apiError(c, 404, 186, 'No such post.');
    await requireLinkingIntegrator(deps, c, post.platform, post.accountId);
    const body = await readBody(c);
    const text = body?.text;
    const author = body?.author ?? 'sandbox-visitor';
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT || typeof author !== 'string' || author.length > 100) {
      return apiError(c, 400, 101, '`text` (and optionally `author`) are required.');
    }
    const id = await insertComment(post, text, author, null);
    await queueNetworkEvent(deps.storage.driver, { type: 'comment', platform: post.platform, accountId: post.accountId, networkPostId: post.networkId, commentId: id, text, author, at: deps.clock() }, deps.clock());
    return c.json({ id });
  });

  routes.post('/:platform/accounts/:accountId/audience-messages', async (c) => {
    const platform = platformOf(c);
    if (!platform) return apiError(c, 404, 101, 'No such sandbox network.');
    await requireLinkingIntegrator(deps, c, platform, c.req.param('accountId'));
    const body = await readBody(c);
    const text = body?.text;
    const author = body?.author ?? 'sandbox-visitor';
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT || typeof author !== 'string' || author.length > 100) {
      return apiError(c, 400, 101, '`text` (and optionally `author`) are required.');
    }
    const id = newId('sbm_');
    await queueNetworkEvent(deps.storage.driver, { type: 'message', platform, accountId: c.req.param('accountId'), messageId: id, text, author, at: deps.clock() }, deps.clock());
    return c.json({ id });
  });

  routes.post('/:platform/comments/:commentId/private-replies', async (c) => {
    const platform = platformOf(c);
    if (platform !== 'instagram' && platform !== 'facebook') return apiError(c, 404, 101, 'Private replies exist on instagram and facebook only.');
    const auth = await caller(c, platform);
    if (!auth) return apiError(c, 401, 401, 'The access token is missing or invalid.');
    const row = await db().get(
      'SELECT c.id, c.text, c.created_at, p.account_id FROM sandbox_comments c JOIN sandbox_posts p ON p.id = c.post_id WHERE c.id = ? AND p.platform = ?',
      [c.req.param('commentId'), platform],
    );
    if (!row || row.account_id !== auth.accountId) return apiError(c, 400, 490, 'Invalid comment id.');
    const body = await readBody(c);
    if (typeof body?.text !== 'string' || body.text.trim() === '' || body.text.length > 1000) return apiError(c, 400, 101, '`text` is required (at most 1000 characters).');
    const marker = faultMarker(row.text as string);
    if (marker && PRIVATE_REPLY_FAULTS[marker]) return apiError(c, PRIVATE_REPLY_FAULTS[marker] as 400, Number(marker), `Sandbox fault ${marker}: the private reply was refused.`);
    if (deps.clock() - Number(row.created_at) > PRIVATE_REPLY_WINDOW_MS) return apiError(c, 400, 491, 'The comment is older than 7 days.');
    if (privatelyAnswered.has(row.id as string)) return apiError(c, 400, 491, 'This comment was already answered privately.');
    privatelyAnswered.add(row.id as string);
    return c.json({ id: newId('sbm_') });
  });

  async function insertComment(post: SandboxPost, text: string, author: string | null, replyTo: string | null): Promise<string> {
    const id = newId('sbc_');
    await db().run('INSERT INTO sandbox_comments (id, post_id, text, media, created_at, author, reply_to) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      id,
      post.id,
      text,
      '[]',
      deps.clock(),
      author,
      replyTo,
    ]);
    return id;
  }

  return routes;
}

/** youtube's `snippet` and `status` of a video, as the Data API describes one. */
function youtubeSnippet(post: SandboxPost) {
  const title = (post.record?.options as { title?: unknown } | undefined)?.title;
  return {
    title: typeof title === 'string' ? title : post.text.slice(0, 100),
    description: post.text,
    tags: [...post.text.matchAll(/#(\w+)/g)].map((match) => match[1]),
    channelTitle: `Sandbox channel ${post.accountId}`,
    privacyStatus: youtubePrivacyOf(post),
    thumbnailUrls: { default: `https://i.sandbox.invalid/vi/${post.networkId}/default.jpg` },
  };
}
