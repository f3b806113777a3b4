/**
 * @module
 * The sandbox TikTok Content Posting API at `/sandbox/tiktok`, with the paths and payloads of open.tiktokapis.com
 * (every answer `{data, error: {code, message, log_id}}`, `error.code` "ok" on success):
 * - `POST /v2/post/publish/creator_info/query/` → `{creator_username, privacy_level_options, max_video_post_duration_sec…}`;
 * - `POST /v2/post/publish/video/init/ {post_info: {title, privacy_level…}, source_info: {source: PULL_FROM_URL,
 *   video_url}}` → `{publish_id}`; TikTok then downloads and processes the video for TIKTOK_PROCESSING_MS of the
 *   service clock;
 * - `POST /v2/post/publish/status/fetch/ {publish_id}` → `{status: PROCESSING_DOWNLOAD | PUBLISH_COMPLETE | FAILED,
 *   publicaly_available_post_id: [id], fail_reason}` (TikTok's own spelling).
 * Faults in the title: 429 (rate_limit_exceeded), 401 (access_token_invalid), `processing-failed` (FAILED after
 * processing).
 */
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomBytes, randomInt } from 'node:crypto';
import type { AppDeps, AppEnv } from '../../context.js';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkAuthorizationServerToken, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';

export const TIKTOK_PROCESSING_MS = 5_000;
const PUBLISHES = 'tiktok:publish';
const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const CAPTION_MAX = 2_200;

class TikTokError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sandboxTiktokRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const logId = () => randomBytes(12).toString('hex');

  routes.onError((error, c) => {
    if (!(error instanceof TikTokError)) throw error;
    return c.json({ error: { code: error.code, message: error.message, log_id: logId() } }, error.status as ContentfulStatusCode);
  });
  const ok = (c: Context<AppEnv>, data: Record<string, unknown>) => c.json({ data, error: { code: 'ok', message: '', log_id: logId() } });

  async function creatorOf(c: Context<AppEnv>): Promise<string> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    let check = await checkSandboxToken(store(), token, 'tiktok', 'access', now);
    if (!check.ok && check.reason === 'invalid' && token) check = await checkAuthorizationServerToken(deps.networks.sandboxIssuer, token, now);
    if (!check.ok) throw new TikTokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    return check.accountId ?? 'any';
  }

  async function body(c: Context<AppEnv>): Promise<Record<string, unknown>> {
    const json = (await c.req.json().catch(() => null)) as unknown;
    if (!json || typeof json !== 'object' || Array.isArray(json) || containsNul(json)) throw new TikTokError(400, 'invalid_params', 'The request body is not valid JSON.');
    return json as Record<string, unknown>;
  }

  routes.post('/v2/post/publish/creator_info/query/', async (c) => {
    const creator = await creatorOf(c);
    return ok(c, {
      creator_avatar_url: '',
      creator_username: creator.replace(/^sandbox-/, ''),
      creator_nickname: 'Sandbox TikTok creator',
      privacy_level_options: PRIVACY_LEVELS,
      comment_disabled: false,
      duet_disabled: false,
      stitch_disabled: false,
      max_video_post_duration_sec: 600,
    });
  });

  routes.post('/v2/post/publish/video/init/', async (c) => {
    const creator = await creatorOf(c);
    const input = await body(c);
    const postInfo = (input.post_info ?? {}) as Record<string, unknown>;
    const source = (input.source_info ?? {}) as Record<string, unknown>;
    const title = typeof postInfo.title === 'string' ? postInfo.title : '';
    if ([...title].length > CAPTION_MAX) throw new TikTokError(400, 'invalid_params', 'The title is longer than 2,200 characters.');
    if (!PRIVACY_LEVELS.includes(String(postInfo.privacy_level))) throw new TikTokError(400, 'privacy_level_option_mismatch', 'privacy_level is not one of the creator\'s options.');
    if (source.source !== 'PULL_FROM_URL' || typeof source.video_url !== 'string' || !/^https?:\/\/\S{1,2040}$/.test(source.video_url)) {
      throw new TikTokError(400, 'invalid_params', 'source_info must be PULL_FROM_URL with a video_url.');
    }
    const marker = faultMarker(title);
    if (marker === '429') throw new TikTokError(429, 'rate_limit_exceeded', 'The API rate limit was exceeded.');
    if (marker === '401') throw new TikTokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    const now = deps.clock();
    const publishId = `v_pub_url~v2-1.${randomInt(10 ** 9, 10 ** 10)}${randomInt(10 ** 8, 10 ** 9)}`;
    await store().insertPost({
      platform: PUBLISHES,
      accountId: creator,
      networkId: publishId,
      clientKey: null,
      text: title,
      media: [{ url: source.video_url, kind: 'video' }],
      record: { post_info: postInfo, post_id: null },
      status: 'processing',
      error: marker === 'processing-failed' ? 'file_format_check_failed' : null,
      createdAt: now,
      readyAt: now + TIKTOK_PROCESSING_MS,
    });
    return ok(c, { publish_id: publishId });
  });

  routes.post('/v2/post/publish/status/fetch/', async (c) => {
    const creator = await creatorOf(c);
    const input = await body(c);
    const publish = typeof input.publish_id === 'string' ? await store().findByNetworkId(PUBLISHES, creator, input.publish_id) : null;
    if (!publish) throw new TikTokError(400, 'invalid_publish_id', 'The publish_id does not exist.');
    const now = deps.clock();
    if (publish.readyAt > now) return ok(c, { status: 'PROCESSING_DOWNLOAD', uploaded_bytes: 0 });
    if (publish.error) return ok(c, { status: 'FAILED', fail_reason: publish.error });
    const record = publish.record as { post_info: Record<string, unknown>; post_id: string | null };
    let postId = record.post_id;
    if (!postId) {
      postId = `7${String(randomInt(10 ** 9, 10 ** 10))}${String(randomInt(10 ** 8, 10 ** 9))}`;
      await store().insertPost({
        platform: 'tiktok',
        accountId: creator,
        networkId: postId,
        clientKey: null,
        text: publish.text,
        media: publish.media,
        record: { post_info: record.post_info, publish_id: publish.networkId },
        status: 'published',
        error: null,
        createdAt: now,
        readyAt: now,
      });
      await store().updatePost(publish.id, { status: 'published', record: { ...record, post_id: postId }, readyAt: publish.readyAt });
    }
    return ok(c, { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [postId], uploaded_bytes: 0 });
  });

  return routes;
}
