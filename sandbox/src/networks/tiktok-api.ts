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
 * - `POST /open_api/v1.3/business/comment/create/ {business_id, video_id, text}` with `Access-Token` (TikTok's Business
 *   API, for the first comment) → `{code: 0, message: "OK", data: {comment_id, video_id, text}}`; an invalid token →
 *   code 40105, an unknown video → 40002, an empty text → 40002.
 * When processing ends (a job due TIKTOK_PROCESSING_MS later on the service clock), the sandbox sends TikTok's
 * webhook `post.publish.publicly_available` to the app's callback (`{PUBLIC_URL}/webhooks/tiktok`), signed with
 * the sandbox app's client secret in `TikTok-Signature`, as TikTok does; a refused delivery is retried a few times.
 * Faults in the title: 429 (rate_limit_exceeded), 401 (access_token_invalid), `processing-failed` (FAILED after
 * processing, no callback).
 */
import type { Job, JobHandler, JobOutcome, SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { TIKTOK_SIGNATURE_HEADER, tiktokSignature } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import type { SandboxNetworkStore, SandboxPost } from './store.js';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { answerOwnErrors } from './own-errors.js';

export const TIKTOK_PROCESSING_MS = 5_000;
const PUBLISHES = 'tiktok:publish';
const PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'];
const CAPTION_MAX = 2_200;
/** The job that sends the sandbox's webhook once a publish is processed. */
export const JOB_SANDBOX_TIKTOK_CALLBACK = 'sandbox-tiktok-callback';
const CALLBACK_ATTEMPTS = 5;
const CALLBACK_RETRY_MS = 5_000;

interface PublishRecord {
  post_info: Record<string, unknown>;
  post_id: string | null;
  callbackSentAt?: number;
}

/** A processed publish gets its public post id once (the status fetch and the callback both ask). */
async function postIdOf(store: SandboxNetworkStore, publish: SandboxPost, now: number): Promise<string> {
  const record = publish.record as unknown as PublishRecord;
  if (record.post_id) return record.post_id;
  // Derived from the publish id, so the status fetch and the callback job, racing, name the same video once.
  const postId = `7${BigInt(`0x${createHash('sha256').update(publish.networkId).digest('hex').slice(0, 15)}`).toString().padStart(18, '0').slice(0, 18)}`;
  await store.insertPost({
    platform: 'tiktok',
    accountId: publish.accountId,
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
  const updated: PublishRecord = { ...record, post_id: postId };
  await store.updatePost(publish.id, { status: 'published', record: updated as unknown as Record<string, unknown>, readyAt: publish.readyAt });
  publish.record = updated as unknown as Record<string, unknown>;
  return postId;
}

/**
 * The worker side of the sandbox: sends `post.publish.publicly_available` for a processed publish to the app's
 * TikTok callback. Registered on the service's job worker when the sandbox runs.
 */
export function sandboxTiktokJobHandlers(deps: SandboxHost): Record<string, JobHandler> {
  const fetchOwn = deps.fetchOwnOrigin;
  return {
    async [JOB_SANDBOX_TIKTOK_CALLBACK](job: Job): Promise<JobOutcome> {
      const app = deps.networks.oauth('tiktok', 'instagram');
      const store = sandboxStoreOf(deps.storage);
      const publish = await store.findByPlatformId(PUBLISHES, job.subject);
      if (!app?.sandbox || !publish || publish.error) return { kind: 'done' };
      const now = deps.clock();
      if (publish.readyAt > now) return { kind: 'retry', runAt: publish.readyAt };
      const postId = await postIdOf(store, publish, now);
      const body = JSON.stringify({
        client_key: app.clientId,
        event: 'post.publish.publicly_available',
        create_time: Math.floor(now / 1000),
        user_openid: publish.accountId,
        content: JSON.stringify({ publish_id: publish.networkId, post_id: postId, publish_type: 'DIRECT_PUBLISH' }),
      });
      const response = await fetchOwn(`${deps.config.publicUrl}/webhooks/tiktok`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [TIKTOK_SIGNATURE_HEADER]: tiktokSignature(app.clientSecret, Math.floor(now / 1000), body) },
        body,
      }).catch(() => null);
      await response?.body?.cancel();
      if (!response?.ok) {
        return job.attempts >= CALLBACK_ATTEMPTS ? { kind: 'failed', error: `callback refused (${response?.status ?? 'no answer'})` } : { kind: 'retry', runAt: now + CALLBACK_RETRY_MS };
      }
      const record = publish.record as unknown as PublishRecord;
      await store.updatePost(publish.id, { status: 'published', record: { ...record, callbackSentAt: now } as unknown as Record<string, unknown>, readyAt: publish.readyAt });
      return { kind: 'done' };
    },
  };
}

/** TikTok's API error (the publish and the read routes): HTTP status, TikTok's code and message. */
export class TikTokError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sandboxTiktokRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const logId = () => randomBytes(12).toString('hex');

  answerOwnErrors(routes, TikTokError, (error, c) => c.json({ error: { code: error.code, message: error.message, log_id: logId() } }, error.status as ContentfulStatusCode));
  const ok = (c: Context<SandboxEnv>, data: Record<string, unknown>) => c.json({ data, error: { code: 'ok', message: '', log_id: logId() } });

  async function creatorOf(c: Context<SandboxEnv>): Promise<string> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, 'tiktok', 'access', now);
    if (!check.ok) throw new TikTokError(401, 'access_token_invalid', 'The access token is invalid or not found in the request.');
    return check.accountId;
  }

  async function body(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
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
    // TikTok calls the app back when processing ends (the app's polling stays a fallback).
    await deps.publishing?.jobs.add({ kind: JOB_SANDBOX_TIKTOK_CALLBACK, subject: publishId, payload: {}, runAt: now + TIKTOK_PROCESSING_MS }, now);
    return ok(c, { publish_id: publishId });
  });

  routes.post('/open_api/v1.3/business/comment/create/', async (c) => {
    const business = (code: number, message: string, data: Record<string, unknown> = {}) => c.json({ code, message, request_id: logId(), data });
    const now = deps.clock();
    const check = await checkSandboxToken(store(), c.req.header('access-token') ?? null, 'tiktok', 'access', now);
    if (!check.ok) return business(40105, 'The access token is invalid or has expired.');
    const input = (await c.req.json().catch(() => null)) as { video_id?: unknown; text?: unknown } | null;
    const text = typeof input?.text === 'string' ? input.text : '';
    if (text.trim() === '' || [...text].length > 150 || containsNul(text)) return business(40002, 'text must be 1 to 150 characters.');
    const video = typeof input?.video_id === 'string' ? await store().findByPlatformId('tiktok', input.video_id) : null;
    if (!video || video.accountId !== check.accountId) return business(40002, 'The video does not exist or is not yours.');
    const comment = await store().addComment(video.id, text, [], now);
    return business(0, 'OK', { comment_id: comment.id, video_id: video.networkId, text, create_time: Math.floor(now / 1000) });
  });

  routes.post('/v2/post/publish/status/fetch/', async (c) => {
    const creator = await creatorOf(c);
    const input = await body(c);
    const publish = typeof input.publish_id === 'string' ? await store().findByNetworkId(PUBLISHES, creator, input.publish_id) : null;
    if (!publish) throw new TikTokError(400, 'invalid_publish_id', 'The publish_id does not exist.');
    const now = deps.clock();
    if (publish.readyAt > now) return ok(c, { status: 'PROCESSING_DOWNLOAD', uploaded_bytes: 0 });
    if (publish.error) return ok(c, { status: 'FAILED', fail_reason: publish.error });
    const postId = await postIdOf(store(), publish, now);
    return ok(c, { status: 'PUBLISH_COMPLETE', publicaly_available_post_id: [postId], uploaded_bytes: 0 });
  });

  return routes;
}
