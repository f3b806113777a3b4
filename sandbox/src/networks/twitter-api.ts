/**
 * @module
 * The sandbox X API v2 at `/sandbox/twitter`, in X's wire format, for the twitter adapter:
 * - `POST /2/tweets {text?, media?: {media_ids}, reply?: {in_reply_to_tweet_id}, reply_settings?}` → 201
 *   `{data: {id, text, edit_history_tweet_ids}}`; `DELETE /2/tweets/{id}` → `{data: {deleted: true}}`;
 *   `GET /2/users/{id}/tweets?max_results&pagination_token` → `{data: [{id, text, created_at}], meta: {next_token?}}`
 *   (newest first);
 * - `POST /2/media/upload` (command INIT and FINALIZE as a form, APPEND as multipart) and
 *   `GET /2/media/upload?command=STATUS&media_id=`: chunked upload; videos answer `processing_info` pending at
 *   FINALIZE and succeeded at STATUS; `GET /media/{id}` serves the assembled file (the feed shows it).
 * - `GET /i/web/status/{id}` → the feed's page of the tweet.
 * Every API call must be signed with OAuth 1.0a (oauth1.ts): the sandbox developer app below, and a sandbox access
 * token whose secret is derived from it (`sandboxTwitterTokenSecret`); the timestamp within 5 minutes of the service
 * clock. Otherwise 401. Sandbox accounts are Premium: up to 25,000 weighted characters. An exact duplicate of one of
 * the account's tweets → 403 duplicate content. Fault markers in the text: 111, 272, 364, 416, 417, 423, 500, 503.
 * Errors are X's problem objects `{title, detail, type, status}` (and `{errors: [{code, message}]}` where X uses them).
 * The reads after a post is out (metrics, users, conversation search) are twitter-engagement-api.ts.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { measureText, oauth1Signature, parseOAuth1Header, signatureBaseString } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxMedia } from './store.js';
import { replyToAudienceComment } from './twitter-engagement-api.js';
import { answerOwnErrors } from './own-errors.js';

/** The sandbox's one developer app (public: it only works here). Send these as X-Twitter-OAuth1-Api-Key/-Secret. */
export const SANDBOX_TWITTER_APP = { apiKey: 'sandbox-twitter-api-key', apiSecret: 'sandbox-twitter-api-secret' } as const;
export const SANDBOX_TWITTER_MAX_WEIGHTED = 25_000;
const MAX_MEDIA_BYTES = 16 * 1024 * 1024;
const SIGNATURE_WINDOW_MS = 5 * 60_000;

/** The OAuth 1.0a token secret that goes with a sandbox access token (derived, so the sandbox can check signatures). */
export function sandboxTwitterTokenSecret(token: string): string {
  return createHash('sha256').update(`sandbox-twitter-token-secret|${token}`).digest('base64url');
}

export class XApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : 'X API error');
  }
}

export const problem = (status: number, title: string, detail: string, type = 'about:blank', extra: Record<string, unknown> = {}) =>
  new XApiError(status, { title, detail, type, status, ...extra });
const invalid = (detail: string) => problem(400, 'Invalid Request', detail, 'https://api.twitter.com/2/problems/invalid-request', { errors: [{ message: detail }] });

/** What each fault marker makes the sandbox answer, as X answers it. */
function faultError(marker: string, now: number): XApiError | null {
  switch (marker) {
    case '111':
      return problem(403, 'Forbidden', 'You are not permitted to perform this action.');
    case '272':
      return new XApiError(403, { errors: [{ code: 326, message: 'To protect our users from spam and other malicious activity, this account is temporarily locked.' }] });
    case '364':
      return problem(429, 'Too Many Requests', 'Too Many Requests', 'about:blank', {});
    case '416':
      return problem(402, 'CreditsDepleted', 'Your enrolled account [1] does not have any credits to fulfill this request.', 'https://api.twitter.com/2/problems/credits');
    case '417':
      return new XApiError(
        403,
        { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Your client app is not configured with the appropriate oauth1 app permissions for this endpoint.' },
        { 'x-access-level': 'read' },
      );
    case '423':
      return problem(403, 'Client Forbidden', 'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.', 'https://api.twitter.com/2/problems/client-forbidden', {
        reason: 'client-not-enrolled',
        required_enrollment: 'Appropriate Level of API Access',
      });
    case '500':
      return problem(500, 'Internal Server Error', 'Internal Server Error');
    case '503':
      return problem(503, 'Service Unavailable', 'Service Unavailable');
    default:
      void now;
      return problem(400, 'Invalid Request', `sandbox: twitter cannot produce fault ${marker} (see docs/sandbox-faults.md)`);
  }
}

/** Ids shaped like X's (snowflakes: 19 digits). */
const newSnowflake = () => `1${randomInt(10 ** 8, 10 ** 9 - 1)}${String(randomInt(0, 10 ** 9 - 1)).padStart(9, '0')}`;

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Checks the OAuth 1.0a signature; returns the account the token belongs to. */
export async function authorizeXRequest(deps: SandboxHost, c: Context<SandboxEnv>, formParams: [string, string][]): Promise<string> {
  const store = () => sandboxStoreOf(deps.storage);
  const unauthorized = problem(401, 'Unauthorized', 'Unauthorized');
  const oauth = parseOAuth1Header(c.req.header('authorization'));
  if (!oauth || oauth.oauth_signature_method !== 'HMAC-SHA1' || !oauth.oauth_signature || !oauth.oauth_nonce) throw unauthorized;
  if (oauth.oauth_consumer_key !== SANDBOX_TWITTER_APP.apiKey) throw new XApiError(401, { errors: [{ code: 32, message: 'Could not authenticate you.' }] });
  const now = deps.clock();
  const timestamp = Number(oauth.oauth_timestamp) * 1000;
  if (!Number.isFinite(timestamp) || Math.abs(timestamp - now) > SIGNATURE_WINDOW_MS) throw unauthorized;
  const token = oauth.oauth_token ?? '';
  const check = await checkSandboxToken(store(), token, 'twitter', 'access', now);
  if (!check.ok || !check.accountId) throw unauthorized;
  const signed = Object.entries(oauth).filter(([key]) => key !== 'oauth_signature' && key !== 'realm');
  const url = new URL(c.req.url);
  // Behind the service the request URL is its public one: sign over the public origin as the client did.
  const publicUrl = `${deps.config.publicUrl}${url.pathname}${url.search}`;
  const expected = oauth1Signature(SANDBOX_TWITTER_APP.apiSecret, sandboxTwitterTokenSecret(token), signatureBaseString(c.req.method, publicUrl, [...signed, ...formParams]));
  if (!sameText(expected, oauth.oauth_signature)) throw unauthorized;
  return check.accountId;
}

export function sandboxTwitterRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const base = () => `${deps.config.publicUrl}/sandbox/twitter`;

  answerOwnErrors(routes, XApiError, (error, c) => c.json(error.body, error.status as ContentfulStatusCode, error.headers));

  const authorize = (c: Context<SandboxEnv>, formParams: [string, string][]) => authorizeXRequest(deps, c, formParams);

  const throwFault = (text: string) => {
    const marker = faultMarker(text);
    if (!marker) return;
    const error = faultError(marker, deps.clock());
    if (error?.status === 429) error.headers['x-rate-limit-reset'] = String(Math.floor(deps.clock() / 1000) + 900);
    if (error) throw error;
  };

  const tweetOf = (post: { networkId: string; text: string; createdAt: number; record?: Record<string, unknown> | null }) => ({
    id: post.networkId,
    text: post.text,
    created_at: new Date(post.createdAt).toISOString(),
    edit_history_tweet_ids: [post.networkId],
    // As X shows a reply (tweet.fields=referenced_tweets): what a thread's reconcile checks each part against.
    ...(typeof post.record?.inReplyTo === 'string' && { referenced_tweets: [{ type: 'replied_to', id: post.record.inReplyTo }] }),
  });

  routes.post('/2/tweets', async (c) => {
    const accountId = await authorize(c, []);
    const body = (await c.req.json().catch(() => null)) as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body) || containsNul(body)) throw invalid('The body must be a JSON object.');
    const text = body.text ?? '';
    if (typeof text !== 'string') throw invalid('`text` must be a string.');
    const mediaIds = (body.media as { media_ids?: unknown } | undefined)?.media_ids ?? [];
    if (!Array.isArray(mediaIds) || mediaIds.length > 4 || mediaIds.some((id) => typeof id !== 'string' || !/^\d{1,30}$/.test(id))) throw invalid('`media.media_ids` must hold 1-4 media ids.');
    if (text.trim() === '' && mediaIds.length === 0) throw invalid('Post text or media is required.');
    if (measureText(text, 'weighted') > SANDBOX_TWITTER_MAX_WEIGHTED) throw invalid('Your Tweet text is too long.');
    const replyTo = (body.reply as { in_reply_to_tweet_id?: unknown } | undefined)?.in_reply_to_tweet_id;
    // An answer to a comment of the sandbox audience (twitter-engagement-api.ts).
    const answered = typeof replyTo === 'string' && replyTo.startsWith('sbc_') && text.trim() !== '' ? await replyToAudienceComment(deps, accountId, replyTo, text) : null;
    if (answered) return c.json({ data: answered }, 201);
    // Any public tweet can be replied to, as on X: the reply is a tweet of the caller's own account.
    if (replyTo !== undefined && (typeof replyTo !== 'string' || !(await store().findByPlatformId('twitter', replyTo)))) throw invalid('The tweet replied to does not exist.');
    const replySettings = body.reply_settings;
    if (replySettings !== undefined && !['following', 'mentionedUsers', 'subscribers', 'verified'].includes(replySettings as string)) throw invalid('`reply_settings` is not valid.');
    throwFault(text);
    const media: SandboxMedia[] = [];
    for (const id of mediaIds as string[]) {
      const blob = await store().findBlob(accountId, `xmedia:${id}`);
      if (!blob) throw invalid(`Media id ${id} is not a finalized upload of this account.`);
      media.push({ url: `/sandbox/twitter/media/${id}`, mimeType: blob.mimeType, kind: blob.mimeType.startsWith('video/') ? 'video' : 'image' });
    }
    const recent = await store().listForAccounts([{ platform: 'twitter', accountId }], 100);
    if (text !== '' && recent.some((post) => post.deletedAt === null && post.text === text)) {
      throw problem(403, 'Forbidden', 'You are not allowed to create a Tweet with duplicate content.');
    }
    const now = deps.clock();
    const networkId = newSnowflake();
    const tweet = { id: networkId, text, edit_history_tweet_ids: [networkId] };
    const row = await store().insertPost({
      platform: 'twitter',
      accountId,
      networkId,
      clientKey: null,
      text,
      media,
      record: { tweet, ...(replyTo !== undefined && { inReplyTo: replyTo }), ...(replySettings !== undefined && { replySettings }) },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!row) throw problem(503, 'Service Unavailable', 'Service Unavailable');
    return c.json({ data: tweet }, 201);
  });

  routes.delete('/2/tweets/:id', async (c) => {
    const accountId = await authorize(c, []);
    const post = await store().findByNetworkId('twitter', accountId, c.req.param('id'));
    if (!post) throw problem(404, 'Not Found Error', `Could not find tweet with id: [${c.req.param('id').slice(0, 30)}].`, 'https://api.twitter.com/2/problems/resource-not-found');
    await store().markDeleted(post.id, deps.clock());
    return c.json({ data: { deleted: true } });
  });

  routes.get('/2/users/:id/tweets', async (c) => {
    const accountId = await authorize(c, []);
    if (c.req.param('id') !== accountId) throw problem(403, 'Forbidden', 'You are not permitted to perform this action.');
    const max = Math.min(Math.max(Number(c.req.query('max_results') ?? 10) || 10, 5), 100);
    // X pages with `pagination_token` (the `meta.next_token` of the page before), absent on the last page.
    const page = await store().pageForAccount('twitter', accountId, max, c.req.query('pagination_token') || null);
    const posts = page.posts;
    return c.json({
      data: posts.map(tweetOf),
      meta: { result_count: posts.length, ...(posts[0] && { newest_id: posts[0].networkId, oldest_id: posts.at(-1)!.networkId }), ...(page.next && { next_token: page.next }) },
    });
  });

  routes.post('/2/media/upload', async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (type.includes('multipart/form-data')) {
      const accountId = await authorize(c, []);
      const form = await c.req.parseBody();
      const mediaId = String(form.media_id ?? '');
      const index = Number(form.segment_index);
      const chunk = form.media;
      if (form.command !== 'APPEND' || !/^\d{1,30}$/.test(mediaId) || !Number.isInteger(index) || index < 0 || index > 999 || !(chunk instanceof Blob)) {
        throw invalid('APPEND needs media_id, segment_index and media.');
      }
      if (!(await store().findBlob(accountId, `xmedia:${mediaId}:init`))) throw invalid(`Unknown media id ${mediaId}.`);
      const bytes = new Uint8Array(await chunk.arrayBuffer());
      if (bytes.byteLength > 5 * 1024 * 1024) throw invalid('A segment is at most 5 MB.');
      await store().putBlob(accountId, `xmedia:${mediaId}:${index}`, 'application/octet-stream', bytes, deps.clock());
      return c.body(null, 204);
    }
    const form = Object.fromEntries(new URLSearchParams(await c.req.text()));
    const accountId = await authorize(c, Object.entries(form));
    const now = deps.clock();
    if (form.command === 'INIT') {
      const total = Number(form.total_bytes);
      const mediaType = form.media_type ?? '';
      if (!Number.isInteger(total) || total <= 0 || total > MAX_MEDIA_BYTES) throw invalid('total_bytes is missing or too large.');
      if (!/^(image\/(jpeg|png|gif|webp)|video\/(mp4|quicktime))$/.test(mediaType)) throw invalid(`media type unrecognized: ${mediaType.slice(0, 40)}`);
      const mediaId = newSnowflake();
      const meta = { mediaType, totalBytes: total, category: form.media_category ?? null };
      await store().putBlob(accountId, `xmedia:${mediaId}:init`, 'application/json', Buffer.from(JSON.stringify(meta)), now);
      return c.json({ data: { id: mediaId, media_key: `3_${mediaId}`, expires_after_secs: 86_400 } }, 202);
    }
    if (form.command === 'FINALIZE') {
      const mediaId = form.media_id ?? '';
      const init = /^\d{1,30}$/.test(mediaId) ? await store().findBlob(accountId, `xmedia:${mediaId}:init`) : null;
      if (!init) throw invalid(`Unknown media id ${mediaId.slice(0, 30)}.`);
      const meta = JSON.parse(init.bytes.toString()) as { mediaType: string; totalBytes: number };
      const segments: Buffer[] = [];
      for (let index = 0; ; index++) {
        const segment = await store().findBlob(accountId, `xmedia:${mediaId}:${index}`);
        if (!segment) break;
        segments.push(segment.bytes);
      }
      const file = Buffer.concat(segments);
      if (file.byteLength !== meta.totalBytes) throw invalid(`File size mismatch: ${file.byteLength} of ${meta.totalBytes} bytes received.`);
      await store().putBlob(accountId, `xmedia:${mediaId}`, meta.mediaType, file, now);
      const video = meta.mediaType.startsWith('video/');
      return c.json({
        data: { id: mediaId, media_key: `${video ? 7 : 3}_${mediaId}`, size: file.byteLength, expires_after_secs: 86_400, ...(video && { processing_info: { state: 'pending', check_after_secs: 1 } }) },
      });
    }
    throw invalid('command must be INIT, APPEND or FINALIZE.');
  });

  routes.get('/2/media/upload', async (c) => {
    const accountId = await authorize(c, []);
    const mediaId = c.req.query('media_id') ?? '';
    if (c.req.query('command') !== 'STATUS' || !/^\d{1,30}$/.test(mediaId)) throw invalid('STATUS needs media_id.');
    const blob = await store().findBlob(accountId, `xmedia:${mediaId}`);
    if (!blob) throw invalid(`Unknown media id ${mediaId}.`);
    return c.json({ data: { id: mediaId, processing_info: { state: 'succeeded', progress_percent: 100 } } });
  });

  routes.get('/media/:id', async (c) => {
    // Public, as media on X's CDN: any account's finalized upload by its id.
    const id = c.req.param('id');
    if (!/^\d{1,30}$/.test(id)) return c.text('Not found', 404);
    const row = await deps.storage.driver.get('SELECT mime_type, bytes_base64 FROM sandbox_blobs WHERE cid = ?', [`xmedia:${id}`]);
    if (!row) return c.text('Not found', 404);
    return c.body(Buffer.from(row.bytes_base64 as string, 'base64'), 200, { 'Content-Type': row.mime_type as string, 'Cache-Control': 'no-store' });
  });

  routes.get('/i/web/status/:id', (c) => c.redirect(`${base().replace(/\/twitter$/, '')}/net/twitter/p/${encodeURIComponent(c.req.param('id').slice(0, 30))}`, 302));

  return routes;
}
