/**
 * @module
 * The tiktok publishing adapter: the Content Posting API (open.tiktokapis.com; `ctx.baseUrl` stands for it).
 * prepare: `POST /v2/post/publish/creator_info/query/` first, as TikTok requires: the privacy level must be one of
 * the creator's options (`tikTokOptions.visibility` public / friends / followers / private, else the first option).
 * commit: `POST /v2/post/publish/video/init/` with `PULL_FROM_URL` → `publish_id`; the post is `pending` while TikTok
 * downloads and processes it. confirm: `POST /v2/post/publish/status/fetch/` until PUBLISH_COMPLETE (the post id in
 * `publicaly_available_post_id`, TikTok's spelling) or FAILED.
 * reconcile: TikTok offers no lookup of an init by a key of ours, so an interrupted init cannot be found: it is
 * reported as outcome unknown and never sent again (a blind retry could post twice).
 * comment (the first comment, once the video is public): TikTok's Business API `POST /open_api/v1.3/business/
 * comment/create/ {business_id, video_id, text}` with the `Access-Token` header (business-api.tiktok.com; the sandbox
 * serves it beside the Content Posting API) → `{code: 0, data: {comment_id}}`; a non-zero `code` is its error.
 * Errors `{error: {code, message}}`: access_token_invalid / scope_not_authorized → relink; rate_limit_exceeded → 429
 * with retry; spam_risk_* (too many posts) → 429 without automatic retry; privacy_level_option_mismatch and other
 * invalid_params → 101; url_ownership_unverified → 164; FAILED processing → 164 naming TikTok's reason.
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { tiktokEngagement } from './engagement.js';
import { oauth2RefreshGrant } from '../oauth/refresh-grant.js';
import { failure, storedAccessToken } from '../kit.js';

export const TIKTOK_CAPTION_MAX = 2_200;
const CHECK_MS = 5_000;
/** Comments go through TikTok's Business API, on its own host. */
const TIKTOK_BUSINESS_API = 'https://business-api.tiktok.com';
/** Business API codes for a missing, invalid or expired access token; and its rate limit. */
const BUSINESS_TOKEN_CODES = new Set([40001, 40104, 40105]);
const BUSINESS_RATE_LIMIT_CODE = 40100;
const VISIBILITY_LEVELS: Record<string, string> = {
  public: 'PUBLIC_TO_EVERYONE',
  friends: 'MUTUAL_FOLLOW_FRIENDS',
  followers: 'FOLLOWER_OF_CREATOR',
  private: 'SELF_ONLY',
};

interface TiktokPrepared extends PreparedState {
  privacyLevel: string;
  creatorUsername: string | null;
}

interface TikTokAnswer {
  status: number;
  data: Record<string, unknown>;
  code: string;
  message: string;
}


function validateTiktok(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  if ([...post.text].length > TIKTOK_CAPTION_MAX) issues.push(failure(101, `tiktok captions are at most ${TIKTOK_CAPTION_MAX} characters.`));
  if (post.mediaUrls.length !== 1) issues.push(failure(164, 'tiktok posts carry exactly one video.'));
  const visibility = post.options.visibility;
  if (visibility !== undefined && !(typeof visibility === 'string' && visibility in VISIBILITY_LEVELS)) {
    issues.push(failure(101, `tikTokOptions.visibility must be one of ${Object.keys(VISIBILITY_LEVELS).join(', ')}.`));
  }
  return issues;
}

async function callTikTok(ctx: PublishContext, path: string, body: Record<string, unknown>): Promise<TikTokAnswer> {
  const token = (await storedAccessToken(ctx.account)) ?? '';
  try {
    const response = await ctx.fetch(`${ctx.baseUrl.replace(/\/+$/, '')}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json; charset=UTF-8' },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => null)) as { data?: Record<string, unknown>; error?: { code?: unknown; message?: unknown } } | null;
    return {
      status: response.status,
      data: json?.data ?? {},
      code: typeof json?.error?.code === 'string' ? json.error.code : response.ok ? 'ok' : `http_${response.status}`,
      message: typeof json?.error?.message === 'string' ? json.error.message.slice(0, 300) : '',
    };
  } catch {
    return { status: 0, data: {}, code: 'no_answer', message: 'No answer from TikTok.' };
  }
}

export function classifyTiktokError(answer: TikTokAnswer): PublishFailure {
  const details = { tiktokCode: answer.code, networkMessage: answer.message };
  if (answer.code === 'access_token_invalid' || answer.code === 'scope_not_authorized' || answer.status === 401) {
    return failure(401, 'tiktok no longer accepts the account\'s token; link the account again.', { relink: true, details });
  }
  if (answer.code === 'rate_limit_exceeded' || answer.status === 429) return failure(429, 'tiktok rate limit reached; try again later.', { retryAvailable: true, retryAfterMs: 60_000, details });
  if (answer.code.startsWith('spam_risk')) return failure(429, 'tiktok limits how many posts this creator can make for now; try again later.', { retryAvailable: true, noAutoRetry: true, details });
  if (answer.code === 'url_ownership_unverified') return failure(164, 'tiktok refuses to pull the video from a domain the app has not verified.', { details });
  // No answer: the init may have reached tiktok (uncertain-call.ts decides; tiktok has no look-up, so unconfirmed).
  if (answer.status === 0) return failure(500, 'tiktok could not be reached; try again.', { retryAvailable: true, mayHaveArrived: true, details });
  if (answer.status >= 500) return failure(500, 'tiktok had a temporary problem; try again.', { retryAvailable: true, details });
  return failure(101, `tiktok refused the post: ${answer.message || answer.code}`, { details });
}

/** The public address of a tiktok video (the creator's name comes from creator_info, kept in the pending state). */
export const tiktokPostUrl = (prepared: { creatorUsername?: unknown }, id: string) => `https://www.tiktok.com/@${encodeURIComponent(typeof prepared.creatorUsername === 'string' ? prepared.creatorUsername : '')}/video/${encodeURIComponent(id)}`;

export const tiktokPublishAdapter: PublishAdapter = {
  platform: 'tiktok',
  ...tiktokEngagement,
  // Access tokens expire: renewed with the OAuth 2.0 refresh grant (token-refresher.ts decides when).
  refresh: oauth2RefreshGrant,

  validate: (post) => validateTiktok(post),

  async prepare(ctx) {
    const issues = validateTiktok(ctx.post);
    if (issues.length > 0) return issues[0]!;
    const creator = await callTikTok(ctx, '/v2/post/publish/creator_info/query/', {});
    if (creator.code !== 'ok') return classifyTiktokError(creator);
    const options = Array.isArray(creator.data.privacy_level_options) ? creator.data.privacy_level_options.map(String) : [];
    const wanted = typeof ctx.post.options.visibility === 'string' ? VISIBILITY_LEVELS[ctx.post.options.visibility] : undefined;
    const privacyLevel = wanted ?? options[0];
    if (!privacyLevel || !options.includes(privacyLevel)) {
      return failure(101, `This tiktok account cannot post with visibility ${String(ctx.post.options.visibility)}; its options are ${options.join(', ')}.`, { details: { options } });
    }
    const prepared: TiktokPrepared = { privacyLevel, creatorUsername: typeof creator.data.creator_username === 'string' ? creator.data.creator_username : null };
    return prepared;
  },

  async commit(ctx, preparedState): Promise<CommitResult> {
    const prepared = preparedState as TiktokPrepared;
    const init = await callTikTok(ctx, '/v2/post/publish/video/init/', {
      post_info: { title: ctx.post.text, privacy_level: prepared.privacyLevel },
      source_info: { source: 'PULL_FROM_URL', video_url: ctx.post.mediaUrls[0] },
    });
    if (init.code !== 'ok') return classifyTiktokError(init);
    return { kind: 'pending', state: { publishId: String(init.data.publish_id), creatorUsername: prepared.creatorUsername }, checkAfterMs: CHECK_MS };
  },

  async confirm(ctx, state) {
    const status = await callTikTok(ctx, '/v2/post/publish/status/fetch/', { publish_id: state.publishId });
    if (status.code !== 'ok') return classifyTiktokError(status);
    if (status.data.status === 'FAILED') return failure(164, `tiktok could not process the video: ${String(status.data.fail_reason ?? 'unknown reason')}`, { details: { failReason: status.data.fail_reason } });
    const ids = Array.isArray(status.data.publicaly_available_post_id) ? status.data.publicaly_available_post_id : [];
    if (status.data.status === 'PUBLISH_COMPLETE' && ids.length > 0) {
      const id = String(ids[0]);
      return { kind: 'done', id, postUrl: tiktokPostUrl(state, id) };
    }
    return { kind: 'pending', state, checkAfterMs: CHECK_MS };
  },

  async comment(ctx, networkPostId, text) {
    const token = (await storedAccessToken(ctx.account)) ?? '';
    const base = ctx.account.sandbox ? ctx.baseUrl.replace(/\/+$/, '') : TIKTOK_BUSINESS_API;
    let answer: { code?: unknown; message?: unknown; data?: { comment_id?: unknown } } | null;
    let status = 0;
    try {
      const response = await ctx.fetch(`${base}/open_api/v1.3/business/comment/create/`, {
        method: 'POST',
        headers: { 'Access-Token': token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ business_id: ctx.account.accountId, video_id: networkPostId, text }),
      });
      status = response.status;
      answer = (await response.json().catch(() => null)) as typeof answer;
    } catch {
      answer = null;
    }
    if (answer?.code === 0 && answer.data?.comment_id !== undefined) return { kind: 'done', id: String(answer.data.comment_id), postUrl: '' };
    const code = typeof answer?.code === 'number' ? answer.code : -1;
    const message = typeof answer?.message === 'string' ? answer.message.slice(0, 300) : `HTTP ${status}`;
    const details = { tiktokCode: code, networkMessage: message };
    if (BUSINESS_TOKEN_CODES.has(code)) return failure(401, 'tiktok no longer accepts the account\'s token; link the account again.', { relink: true, details });
    if (code === BUSINESS_RATE_LIMIT_CODE) return failure(429, 'tiktok rate limit reached; try again later.', { retryAvailable: true, retryAfterMs: 60_000, details });
    if (status === 0 || status >= 500) return failure(500, 'tiktok had a temporary problem; try again.', { retryAvailable: true, details });
    return failure(101, `tiktok refused the comment: ${message}`, { details });
  },

  async reconcile() {
    return failure(500, 'The service stopped while sending this post to tiktok, and tiktok offers no way to look it up. It was not sent again; check the account, then retry the post if it is missing.', {
      details: { outcome: 'unknown' },
    });
  },
};
