/**
 * @module
 * The generic sandbox API, for the 11 networks without a real adapter yet, at `/sandbox/net/{platform}`; every
 * call carries `Authorization: Bearer <the account's access token>`:
 * - `POST   /posts`                 `{accountId, text, mediaUrls, clientKey, options}` → `{id, url}`
 * - `GET    /posts?accountId=&clientKey=` → `{posts: [{id, url, status}]}` (what `reconcile` looks at)
 * - `GET    /posts/{id}`            → `{id, url, status: published|processing|failed, error?: {code, message}}`
 * - `DELETE /posts/{id}`            → `{deleted: true}`; 404 when unknown
 * - `POST   /posts/{id}/comments`   `{text, mediaUrls}` → `{id}`
 * Errors: `{error: {code, message, retryAfterSeconds?}}` with the HTTP status of the spec's code (faults.ts).
 * Per-network realism where cheap: each network's text limit in its own unit (twitter 280 weighted → 111), media
 * counts, twitter's refusal of an exact duplicate (137), tiktok `processing` for 5 s of the service clock, no API
 * delete where the network has none.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { measureText } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { NETWORK_CATALOG, NETWORKS, type Network } from '@social-link-kit/protocol/networks/catalog.js';
import { GENERIC_FAULTS, faultMarker } from './faults.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf, type BearerCheck } from './sandbox-tokens.js';
import { containsNul } from './input-guards.js';
import { effectiveStatus, type SandboxMedia, type SandboxPost } from './store.js';
import { randomInt } from 'node:crypto';
import { answerOwnErrors } from './own-errors.js';

/**
 * The networks this generic API serves: those that link through OAuth 2.0, read from the catalogue (bluesky and
 * telegram have sandboxes of their own, the PDS and the Bot API).
 */
export type GenericSandboxNetwork = { [N in Network]: (typeof NETWORK_CATALOG)[N]['connectMethod'] extends 'oauth' ? N : never }[Network];
export const GENERIC_SANDBOX_NETWORKS: readonly GenericSandboxNetwork[] = NETWORKS.filter(
  (network): network is GenericSandboxNetwork => NETWORK_CATALOG[network].connectMethod === 'oauth',
);

/** How long tiktok "processes" a post before it is published, on the service clock. */
export const TIKTOK_PROCESSING_MS = 5_000;
const MAX_TEXT_CHARS = 100_000;

class SandboxApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

function isGeneric(platform: string): platform is GenericSandboxNetwork {
  return (GENERIC_SANDBOX_NETWORKS as readonly string[]).includes(platform);
}

/** A fresh network id: digits, like most networks' post ids. */
function newNetworkId(): string {
  return `${randomInt(1, 10) * 10 ** 17 + randomInt(0, 2 ** 47)}${randomInt(10, 100)}`;
}

export function genericSandboxApi(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const postUrl = (platform: string, id: string) => `${deps.config.publicUrl}/sandbox/net/${platform}/p/${id}`;

  answerOwnErrors(routes, SandboxApiError, (error, c) => {
    const headers: Record<string, string> = error.retryAfterSeconds ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
    const body = { error: { code: error.code, message: error.message, ...(error.retryAfterSeconds && { retryAfterSeconds: error.retryAfterSeconds }) } };
    return c.json(body, error.status as ContentfulStatusCode, headers);
  });

  /** The platform from the path and the caller's token; throws the network's 401 otherwise. */
  async function authorize(c: Context<SandboxEnv>): Promise<{ platform: GenericSandboxNetwork; auth: Extract<BearerCheck, { ok: true }> }> {
    const platform = c.req.param('platform') ?? '';
    if (!isGeneric(platform)) throw new SandboxApiError(404, 101, `No sandbox network ${platform}.`);
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, platform, 'access', now);
    if (!check.ok) {
      const message = check.reason === 'expired' ? 'The access token has expired.' : 'The access token is missing or invalid.';
      throw new SandboxApiError(401, 401, message);
    }
    return { platform, auth: check };
  }

  function throwFault(platform: Network, text: string) {
    const marker = faultMarker(text);
    if (!marker || !/^\d+$/.test(marker)) return;
    const fault = GENERIC_FAULTS[marker];
    if (!fault || (fault.networks && !fault.networks.includes(platform))) {
      throw new SandboxApiError(400, 101, `Sandbox: ${platform} cannot produce fault ${marker} (see docs/sandbox-faults.md).`);
    }
    throw new SandboxApiError(fault.status, Number(marker), `Sandbox fault ${marker}: ${fault.message}`, fault.retryAfterSeconds);
  }

  async function readBody(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new SandboxApiError(400, 101, 'The body must be a JSON object.');
    if (containsNul(body)) throw new SandboxApiError(400, 101, 'The body holds a NUL character.');
    return body as Record<string, unknown>;
  }

  function readMedia(value: unknown): SandboxMedia[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || value.some((url) => typeof url !== 'string' || url.length > 2048)) {
      throw new SandboxApiError(400, 164, '`mediaUrls` must be an array of URLs.');
    }
    return (value as string[]).map((url) => ({ url, kind: /\.(mp4|mov|m4v|webm)(\?|$)/i.test(url) ? 'video' : 'image' }));
  }

  async function ownedPost(platform: GenericSandboxNetwork, auth: { accountId: string }, id: string): Promise<SandboxPost> {
    const post = await store().findByPlatformId(platform, id);
    if (!post || post.accountId !== auth.accountId) {
      throw new SandboxApiError(404, 186, `No ${platform} post ${id} on this account.`);
    }
    return post;
  }

  const view = (post: SandboxPost, now: number) => {
    const status = effectiveStatus(post, now);
    // A failed post says why in the API's error shape (a tiktok ingest failure is a media problem: 164).
    const error = status === 'failed' && post.error ? { error: { code: 164, message: post.error } } : {};
    return { id: post.networkId, url: postUrl(post.platform, post.networkId), status, ...error };
  };

  routes.post('/:platform/posts', async (c) => {
    const { platform, auth } = await authorize(c);
    const body = await readBody(c);
    const accountId = body.accountId;
    if (typeof accountId !== 'string' || accountId === '' || accountId.length > 256) throw new SandboxApiError(400, 101, '`accountId` is required.');
    if (auth.accountId !== accountId) throw new SandboxApiError(403, 401, 'This token does not belong to that account.');
    const text = body.text ?? '';
    if (typeof text !== 'string' || text.length > MAX_TEXT_CHARS) throw new SandboxApiError(400, 101, '`text` must be a string.');
    const clientKey = body.clientKey ?? null;
    if (clientKey !== null && (typeof clientKey !== 'string' || clientKey.length > 256)) throw new SandboxApiError(400, 101, '`clientKey` must be a string.');
    const options = body.options ?? {};
    if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new SandboxApiError(400, 101, '`options` must be an object.');
    const media = readMedia(body.mediaUrls);
    throwFault(platform, text);

    const capabilities = PUBLISHING_CAPABILITIES[platform];
    const length = measureText(text, capabilities.text.unit);
    if (length > capabilities.text.max) {
      const code = platform === 'twitter' ? 111 : 101;
      throw new SandboxApiError(400, code, `Text too long for ${platform}: ${length} of ${capabilities.text.max} ${capabilities.text.unit}.`);
    }
    if (text.trim() === '' && (media.length === 0 || !capabilities.emptyTextAllowed)) throw new SandboxApiError(400, 101, `${platform} needs text.`);
    if (media.length > capabilities.media.maxItems) throw new SandboxApiError(400, 164, `${platform} takes at most ${capabilities.media.maxItems} media.`);
    if (platform === 'snapchat' && media.length === 0) throw new SandboxApiError(400, 164, 'snapchat posts need one image or video.');

    const now = deps.clock();
    if (platform === 'twitter') {
      // X refuses a post whose text equals one of the account's own recent posts.
      if (text !== '' && (await store().recentWithText(platform, accountId, text, 50)).length > 0) {
        throw new SandboxApiError(403, 137, 'You are not allowed to create a post with duplicate content.');
      }
    }
    const processing = platform === 'tiktok';
    const failsInProcessing = faultMarker(text) === 'processing-failed';
    const post = await store().insertPost({
      platform,
      accountId,
      networkId: newNetworkId(),
      clientKey,
      text,
      media,
      record: { options },
      status: processing ? 'processing' : 'published',
      error: failsInProcessing ? 'Sandbox fault: processing failed.' : null,
      createdAt: now,
      readyAt: processing ? now + TIKTOK_PROCESSING_MS : now,
    });
    if (!post) throw new SandboxApiError(503, 503, 'Sandbox id clash; try again.');
    return c.json({ id: post.networkId, url: postUrl(platform, post.networkId) });
  });

  routes.get('/:platform/posts', async (c) => {
    const { platform, auth } = await authorize(c);
    const accountId = c.req.query('accountId') ?? '';
    const clientKey = c.req.query('clientKey') ?? '';
    if (!accountId || !clientKey) throw new SandboxApiError(400, 101, '`accountId` and `clientKey` are required.');
    if (auth.accountId !== accountId) throw new SandboxApiError(403, 401, 'This token does not belong to that account.');
    const now = deps.clock();
    const posts = await store().listByClientKey(platform, accountId, clientKey);
    return c.json({ posts: posts.map((post) => view(post, now)) });
  });

  routes.get('/:platform/posts/:id', async (c) => {
    const { platform, auth } = await authorize(c);
    const post = await ownedPost(platform, auth, c.req.param('id'));
    return c.json(view(post, deps.clock()));
  });

  routes.delete('/:platform/posts/:id', async (c) => {
    const { platform, auth } = await authorize(c);
    if (!PUBLISHING_CAPABILITIES[platform].canDelete) throw new SandboxApiError(400, 101, `${platform} does not allow deleting posts through its API.`);
    const post = await ownedPost(platform, auth, c.req.param('id'));
    await store().markDeleted(post.id, deps.clock());
    return c.json({ deleted: true });
  });

  routes.post('/:platform/posts/:id/comments', async (c) => {
    const { platform, auth } = await authorize(c);
    const post = await ownedPost(platform, auth, c.req.param('id'));
    const body = await readBody(c);
    const text = body.text;
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_TEXT_CHARS) throw new SandboxApiError(400, 101, '`text` is required.');
    const media = readMedia(body.mediaUrls);
    throwFault(platform, text);
    const capabilities = PUBLISHING_CAPABILITIES[platform];
    if (!capabilities.firstComment.supported) throw new SandboxApiError(400, 101, `${platform} does not take comments through its API.`);
    if (media.length > 0 && !capabilities.firstComment.media) throw new SandboxApiError(400, 101, `${platform} comments cannot carry media.`);
    const now = deps.clock();
    const status = effectiveStatus(post, now);
    if (status !== 'published') throw new SandboxApiError(409, 101, `The post is ${status}; comment once it is published.`);
    const comment = await store().addComment(post.id, text, media, now);
    return c.json({ id: comment.id });
  });

  return routes;
}
