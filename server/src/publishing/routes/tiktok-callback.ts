/**
 * @module
 * TikTok's webhook to this app: `POST /webhooks/tiktok` (the callback URL configured in the TikTok app). Every
 * event is signed (`TikTok-Signature`, webhook-signature.ts) with the app's client secret; an unsigned, wrongly
 * signed or stale one is refused with 401 in the envelope. `post.publish.publicly_available` (`content` is a JSON
 * string `{publish_id, post_id}`) resolves the `pending` tiktok post whose init answered that publish_id: its
 * post id is recorded, `tikTokPublished` fires and the first comment runs. Resolution is a compare-and-set shared
 * with the status poll (which stays as the fallback), so a replayed or late callback changes nothing. Other events
 * and unknown publish ids get 200 (TikTok retries anything else).
 */
import { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { ApiError, badRequest } from '../../core/errors.js';
import { ErrorCode } from '@social-link-kit/protocol';
import type { Publishing } from '../publishing.js';
import { tiktokPostUrl } from '../../networks/tiktok/publish.js';
import { TIKTOK_SIGNATURE_HEADER, verifyTiktokSignature } from '../../networks/tiktok/webhook-signature.js';
import { describe, jsonAnswer } from '../../core/openapi/describe.js';

const ACTION = 'tiktok callback';
const MAX_BODY_CHARS = 64 * 1024;
export const PUBLICLY_AVAILABLE = 'post.publish.publicly_available';
const PUBLISH_ID = /^[\w.~-]{1,128}$/;
const POST_ID = /^\d{1,32}$/;

export function tiktokWebhookRoutes(deps: Pick<AppDeps, 'clock' | 'networks' | 'log'>, publishing: Publishing): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/', describe({ summary: "TikTok's webhook (post.publish.publicly_available resolves a pending tiktok post); signed with TikTok-Signature", tag: 'Network callbacks', auth: 'none', response: jsonAnswer('`{status, handled}`') }), async (c) => {
    const raw = await c.req.text();
    if (raw.length > MAX_BODY_CHARS) throw badRequest('The callback body is too large.', undefined, ACTION);
    const secret = deps.networks.oauth('tiktok', 'instagram')?.clientSecret;
    const check = secret ? verifyTiktokSignature(c.req.header(TIKTOK_SIGNATURE_HEADER), raw, secret, deps.clock()) : ({ ok: false, reason: 'missing' } as const);
    if (!check.ok) throw new ApiError(401, ErrorCode.apiKeyInvalid, `The ${TIKTOK_SIGNATURE_HEADER} header is ${check.reason}.`, { action: ACTION });
    const event = (() => {
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return null;
      }
    })();
    if (typeof event !== 'object' || event === null || Array.isArray(event)) throw badRequest('The callback body must be a JSON object.', undefined, ACTION);
    const { event: name, content } = event as { event?: unknown; content?: unknown };
    if (name !== PUBLICLY_AVAILABLE) return c.json({ status: 'success', handled: false });
    const fields = (() => {
      try {
        return typeof content === 'string' ? (JSON.parse(content) as { publish_id?: unknown; post_id?: unknown }) : null;
      } catch {
        return null;
      }
    })();
    const publishId = fields?.publish_id;
    const networkPostId = fields?.post_id === undefined ? undefined : String(fields.post_id);
    if (typeof publishId !== 'string' || !PUBLISH_ID.test(publishId) || networkPostId === undefined || !POST_ID.test(networkPostId)) {
      throw badRequest('content must be a JSON string with publish_id and post_id.', undefined, ACTION);
    }
    const pending = await publishing.store.findPendingBy('tiktok', 'publishId', publishId);
    const resolved = pending !== null && (await publishing.engine.resolvePending(pending.postId, 'tiktok', { kind: 'done', id: networkPostId, postUrl: tiktokPostUrl(pending.state, networkPostId) }));
    deps.log(JSON.stringify({ event: 'tiktok callback', publishId, resolved }));
    return c.json({ status: 'success', handled: resolved });
  });
  return routes;
}
