/**
 * @module
 * The sandbox reddit OAuth API at `/sandbox/reddit`, in reddit's wire format, for the reddit adapter. Every call
 * needs `Authorization: bearer <sandbox access token>` and a non-generic User-Agent (429 otherwise, as reddit
 * throttles default agents). Writes take forms and, with `api_type=json`, answer `{json: {errors, data}}`:
 * - `POST /api/submit {sr, kind: self|link, title, text|url}` → `{json: {errors: [], data: {id, name, url}}}`;
 *   titles over 300 characters → TOO_LONG; a community named `sandbox_banned` → SUBREDDIT_NOTALLOWED.
 * - `GET /user/{name}/submitted?limit&after` → a Listing of the calling account's submissions (newest first), paged
 *   by `after` (the last fullname seen; `data.after` names the next page's, null at the end).
 * - `POST /api/del {id}` → `{}`; `POST /api/comment {thing_id, text}` → `{json: {errors: [], data: {things}}}`.
 * - `GET /r/{sr}/comments/{id}/` → the feed's page of the post.
 * - `POST /api/media/asset.json {filepath, mimetype}` → an upload lease `{args: {action: "//…/media-upload", fields},
 *   asset}` (JPEG, PNG, GIF); `POST /media-upload` (multipart form: the lease's fields, then `file`, no bearer, as
 *   the bucket takes it) → 201 with the XML `<Location>`; `GET /media-upload/{key}` serves the image;
 *   `POST /api/submit {kind: image, url: <action>/<key>}` posts an uploaded image (another URL → BAD_URL).
 * Fault markers in the title or text: 442 (SUBREDDIT_NOTALLOWED), 443 (SUBMIT_VALIDATION_TITLE_BLACKLISTED_STRING),
 * 429 (RATELIMIT, "take a break for 9 minutes"), 500.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomBytes, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { answerOwnErrors } from './own-errors.js';

class RedditHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super('reddit error');
  }
}

const FAULTS: Record<string, [string, string, string]> = {
  '442': ['SUBREDDIT_NOTALLOWED', "you aren't allowed to post there.", 'sr'],
  '443': ['SUBMIT_VALIDATION_TITLE_BLACKLISTED_STRING', 'Your post title contains a word or phrase that is not allowed in this community.', 'title'],
  '429': ['RATELIMIT', "Looks like you've been doing that a lot. Take a break for 9 minutes before trying again.", 'ratelimit'],
};

const ASSETS = 'reddit:asset';
/** The first bytes of each image type the media lease takes. */
const IMAGE_SIGNATURES: Record<string, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  'image/gif': Buffer.from('GIF8'),
};

const jsonErrors = (...errors: [string, string, string | null][]) => ({ json: { errors } });

export function sandboxRedditRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const base = () => `${deps.config.publicUrl}/sandbox/reddit`;

  answerOwnErrors(routes, RedditHttpError, (error, c) => c.json(error.body, error.status as ContentfulStatusCode));

  async function authorize(c: Context<SandboxEnv>): Promise<string> {
    const agent = c.req.header('user-agent') ?? '';
    if (agent === '' || /^(node|undici|python-requests|curl)\b/i.test(agent)) throw new RedditHttpError(429, { message: 'Too Many Requests', error: 429 });
    const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'reddit', 'access', deps.clock());
    if (!check.ok || !check.accountId) throw new RedditHttpError(401, { message: 'Unauthorized', error: 401 });
    return check.accountId;
  }

  async function form(c: Context<SandboxEnv>): Promise<Record<string, string>> {
    const fields = Object.fromEntries(new URLSearchParams(await c.req.text()));
    if (containsNul(fields)) throw new RedditHttpError(400, { message: 'Bad Request', error: 400 });
    return fields;
  }

  routes.post('/api/submit', async (c) => {
    const accountId = await authorize(c);
    const fields = await form(c);
    const { sr = '', title = '', kind = '' } = fields;
    if (!/^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/.test(sr)) return c.json(jsonErrors(['SUBREDDIT_NOEXIST', "that community doesn't exist", 'sr']));
    if (title.trim() === '') return c.json(jsonErrors(['NO_TEXT', 'we need something here', 'title']));
    if ([...title].length > 300) return c.json(jsonErrors(['TOO_LONG', 'this is too long (max: 300)', 'title']));
    if (kind !== 'self' && kind !== 'link' && kind !== 'image') return c.json(jsonErrors(['INVALID_OPTION', "that option isn't valid", 'kind']));
    if (kind === 'image' && !(await uploadedImage(accountId, fields.url ?? ''))) return c.json(jsonErrors(['BAD_URL', 'the image was not uploaded through a media lease', 'url']));
    if (kind === 'link' && !/^https?:\/\/\S+$/.test(fields.url ?? '')) return c.json(jsonErrors(['BAD_URL', 'you should check that url', 'url']));
    const text = kind === 'self' ? (fields.text ?? '') : '';
    if (text.length > 40_000) return c.json(jsonErrors(['TOO_LONG', 'this is too long (max: 40000)', 'text']));
    if (sr.toLowerCase() === 'sandbox_banned') return c.json(jsonErrors(FAULTS['442']!));
    const marker = faultMarker(`${title} ${text}`);
    if (marker === '500') throw new RedditHttpError(500, { message: 'Internal Server Error', error: 500 });
    if (marker) return c.json(jsonErrors(FAULTS[marker] ?? ['BAD_REQUEST', `sandbox: reddit cannot produce fault ${marker} (see docs/sandbox-faults.md)`, null]));
    const id = randomInt(36 ** 6, 36 ** 7 - 1).toString(36);
    const now = deps.clock();
    const row = await store().insertPost({
      platform: 'reddit',
      accountId,
      networkId: `t3_${id}`,
      clientKey: null,
      text: kind === 'self' ? `${title}\n\n${text}` : `${title}\n\n${fields.url}`,
      media: kind === 'image' || (kind === 'link' && /\.(jpe?g|png|gif|webp)(\?|$)/i.test(fields.url ?? '')) ? [{ url: fields.url!, kind: 'image' }] : [],
      record: { id, name: `t3_${id}`, subreddit: sr, title, kind, ...(kind === 'self' ? { selftext: text } : { url: fields.url }), created_utc: Math.floor(now / 1000) },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!row) throw new RedditHttpError(500, { message: 'Internal Server Error', error: 500 });
    return c.json({ json: { errors: [], data: { url: `${base()}/r/${sr}/comments/${id}/`, drafts_count: 0, id, name: `t3_${id}` } } });
  });

  const uploadBase = () => `${deps.config.publicUrl}/sandbox/reddit/media-upload`;

  /** The lease an image URL of a submit names, when this account uploaded its file. */
  async function uploadedImage(accountId: string, url: string): Promise<boolean> {
    if (!url.startsWith(`${uploadBase()}/`)) return false;
    const lease = await store().findByNetworkId(ASSETS, accountId, decodeURIComponent(url.slice(uploadBase().length + 1)));
    return (lease?.record as { uploaded?: boolean } | null)?.uploaded === true;
  }

  routes.post('/api/media/asset.json', async (c) => {
    const accountId = await authorize(c);
    const { filepath = '', mimetype = '' } = await form(c);
    if (!IMAGE_SIGNATURES[mimetype] || filepath === '' || filepath.length > 200) throw new RedditHttpError(400, { message: 'Bad Request', error: 400, explanation: 'mimetype must be image/jpeg, image/png or image/gif' });
    const assetId = randomBytes(9).toString('base64url');
    const key = `rte_images/${assetId}`;
    const now = deps.clock();
    await store().insertPost({ platform: ASSETS, accountId, networkId: key, clientKey: null, text: filepath, media: [], record: { mimetype, uploaded: false }, status: 'processing', error: null, createdAt: now, readyAt: now });
    return c.json({
      // Protocol-relative, as reddit's bucket address is.
      args: { action: uploadBase().replace(/^https?:/, ''), fields: [{ name: 'acl', value: 'private' }, { name: 'key', value: key }, { name: 'Content-Type', value: mimetype }, { name: 'policy', value: 'sandbox' }] },
      asset: { asset_id: assetId, processing_state: 'incomplete', payload: { filepath }, websocket_url: '' },
    });
  });

  routes.post('/media-upload', async (c) => {
    const body = await c.req.formData().catch(() => null);
    const key = body?.get('key');
    const file = body?.get('file');
    const lease = typeof key === 'string' ? await store().findByPlatformId(ASSETS, key) : null;
    const record = lease?.record as { mimetype: string; uploaded: boolean } | undefined;
    if (!lease || !record || record.uploaded || !(file instanceof Blob)) return c.text('<Error><Code>AccessDenied</Code></Error>', 403, { 'Content-Type': 'application/xml' });
    const bytes = Buffer.from(await file.arrayBuffer());
    if (bytes.length > 20 * 1024 * 1024 || !bytes.subarray(0, IMAGE_SIGNATURES[record.mimetype]!.length).equals(IMAGE_SIGNATURES[record.mimetype]!)) {
      return c.text('<Error><Code>InvalidArgument</Code></Error>', 400, { 'Content-Type': 'application/xml' });
    }
    await store().updatePost(lease.id, { status: 'published', record: { ...record, uploaded: true, bytes: bytes.toString('base64'), size: bytes.length }, readyAt: deps.clock() });
    const location = `${uploadBase()}/${encodeURIComponent(lease.networkId)}`;
    return c.text(`<?xml version="1.0" encoding="UTF-8"?><PostResponse><Location>${location}</Location><Key>${lease.networkId}</Key></PostResponse>`, 201, { 'Content-Type': 'application/xml' });
  });

  routes.get('/media-upload/:key{.+}', async (c) => {
    const lease = await store().findByPlatformId(ASSETS, decodeURIComponent(c.req.param('key')));
    const record = lease?.record as { mimetype: string; uploaded: boolean; bytes?: string } | undefined;
    if (!record?.uploaded || !record.bytes) return c.text('Not Found', 404);
    return c.body(Buffer.from(record.bytes, 'base64'), 200, { 'Content-Type': record.mimetype });
  });

  routes.get('/user/:name/submitted', async (c) => {
    const accountId = await authorize(c);
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 25) || 25, 1), 100);
    // reddit's Listing paging: `after` names the last item seen (a fullname); `data.after` is the next page's cursor.
    const page = await store().pageForAccount('reddit', accountId, limit, c.req.query('after') || null);
    return c.json({ kind: 'Listing', data: { after: page.next, before: null, dist: page.posts.length, children: page.posts.map((post) => ({ kind: 't3', data: post.record })) } });
  });

  routes.post('/api/del', async (c) => {
    const accountId = await authorize(c);
    const { id = '' } = await form(c);
    const post = await store().findByNetworkId('reddit', accountId, id);
    // reddit answers {} whether or not there was such a post.
    if (post) await store().markDeleted(post.id, deps.clock());
    return c.json({});
  });

  routes.post('/api/comment', async (c) => {
    const accountId = await authorize(c);
    const { thing_id: thingId = '', text = '' } = await form(c);
    // Under the account's own posts only: the sandbox writes a comment as the post's author, so another account's
    // post is not found here rather than spoken for (reddit itself would post it as the caller).
    const post = await store().findByNetworkId('reddit', accountId, thingId);
    if (!post) return c.json(jsonErrors(['NO_THING_ID', 'id not specified', 'parent']));
    if (text.trim() === '') return c.json(jsonErrors(['NO_TEXT', 'we need something here', 'text']));
    const marker = faultMarker(text);
    if (marker && FAULTS[marker]) return c.json(jsonErrors(FAULTS[marker]!));
    const comment = await store().addComment(post.id, text, [], deps.clock());
    return c.json({ json: { errors: [], data: { things: [{ kind: 't1', data: { id: comment.id, name: `t1_${comment.id}`, body: text, parent_id: thingId } }] } } });
  });

  routes.get('/r/:sr/comments/:id/*', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/reddit/p/t3_${encodeURIComponent(c.req.param('id').slice(0, 20))}`, 302));
  routes.get('/r/:sr/comments/:id', (c) => c.redirect(`${deps.config.publicUrl}/sandbox/net/reddit/p/t3_${encodeURIComponent(c.req.param('id').slice(0, 20))}`, 302));

  return routes;
}
