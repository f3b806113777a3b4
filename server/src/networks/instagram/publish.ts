/**
 * @module
 * The instagram publishing adapter: the Graph content-publishing flow (graph.ts), `account.accountId` being the
 * instagram professional account id.
 *
 * prepare (run again until the containers are ready; the engine keeps the state between runs):
 * 1. `GET /{ig-user-id}?fields=account_type`: PERSONAL accounts cannot publish through the API (spec 4.9 rule 10);
 * 2. containers: `POST /{ig-user-id}/media` — one image (`image_url`), a reel (`video_url`, `media_type: REELS`,
 *    `share_to_feed`, `trial_params`, `audio_name`), a story (`media_type: STORIES`), or a carousel (each item with
 *    `is_carousel_item`, then a `CAROUSEL` container with `children`);
 * 3. `GET /{container-id}?fields=status_code,status` until FINISHED (answering `waiting`); still IN_PROGRESS after
 *    CONTAINER_WAIT_MAX_MS → 436; ERROR → classified (440 for an ingest failure); EXPIRED → made again.
 * An account-state error (subcode 2207085) is retried for about ACCOUNT_STATE_RETRY_MS, then returned as 258 with
 * `retryAvailable: true` and no automatic retry.
 * commit: one use of the account's publishing budget (50 per rolling 24 h, counted in the database so every instance
 * shares it; none left → 435 with Retry-After), then `POST /{ig-user-id}/media_publish {creation_id}`.
 * reconcile: the container says PUBLISHED when the interrupted commit went through; the media is then found in
 * `GET /{ig-user-id}/media` by its caption. Comments: `POST /{media-id}/comments`. No delete (the API has none).
 */
import type { CommitResult, PlatformPost, PreparedState, PrepareWaiting, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { classifyContainerError, classifyGraphError } from '../meta/classify.js';
import { callGraph } from '../meta/graph.js';
import { instagramEngagement } from './engagement.js';
import { failure } from '../kit.js';
import { renewLongLivedToken } from '../meta/long-lived-token.js';

export const INSTAGRAM_CAPTION_MAX = 2_200;
export const INSTAGRAM_HASHTAGS_MAX = 30;
export const INSTAGRAM_CAROUSEL_MAX = 10;
export const INSTAGRAM_DAILY_POSTS = 50;
const DAY_MS = 24 * 3600_000;
/** How long containers may take before the post fails with 436. */
export const CONTAINER_WAIT_MAX_MS = 5 * 60_000;
const CONTAINER_CHECK_MS = 2_000;
/** Spec 7 (258): an account-state error is retried for about 50 s. */
export const ACCOUNT_STATE_RETRY_MS = 50_000;
const ACCOUNT_STATE_CHECK_MS = 10_000;

interface InstagramPrepared extends PreparedState {
  accountChecked?: boolean;
  /** Carousel item containers, one per media URL, in order. */
  children?: string[];
  containerId?: string;
  containerCreatedAt?: number;
  accountStateSince?: number;
  ready?: boolean;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
const isVideoUrl = (post: PlatformPost, url: string) => VIDEO_URL.test(url) || (post.isVideo && post.mediaUrls.length === 1);

function validateInstagram(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const length = [...post.text].length;
  if (length > INSTAGRAM_CAPTION_MAX) issues.push(failure(101, `instagram captions are at most ${INSTAGRAM_CAPTION_MAX} characters; this one has ${length}.`));
  const hashtags = (post.text.match(/#[\p{L}\p{N}_]+/gu) ?? []).length;
  if (hashtags > INSTAGRAM_HASHTAGS_MAX) issues.push(failure(101, `instagram takes at most ${INSTAGRAM_HASHTAGS_MAX} hashtags; this caption has ${hashtags}.`));
  if (post.mediaUrls.length === 0) issues.push(failure(101, 'instagram posts need an image or a video.'));
  if (post.mediaUrls.length > INSTAGRAM_CAROUSEL_MAX) issues.push(failure(164, `instagram carousels take at most ${INSTAGRAM_CAROUSEL_MAX} items.`));
  if (post.options.stories === true && post.mediaUrls.length > 1) issues.push(failure(101, 'An instagram story carries one image or video.'));
  return issues;
}

/** The container fields of one item, for a single post or a carousel child. */
function itemFields(post: PlatformPost, url: string, carouselItem: boolean): Record<string, unknown> {
  const video = isVideoUrl(post, url);
  if (carouselItem) return video ? { video_url: url, media_type: 'VIDEO', is_carousel_item: true } : { image_url: url, is_carousel_item: true };
  if (post.options.stories === true) return video ? { video_url: url, media_type: 'STORIES' } : { image_url: url, media_type: 'STORIES' };
  if (!video) return { image_url: url, caption: post.text };
  const options = post.options;
  const trial = options.trialParams as { graduationStrategy?: string } | undefined;
  return {
    video_url: url,
    media_type: 'REELS',
    caption: post.text,
    ...(options.shareToFeed !== undefined && { share_to_feed: options.shareToFeed === true }),
    ...(trial?.graduationStrategy && { trial_params: { graduation_strategy: trial.graduationStrategy } }),
    // audioConfiguration wins over audioName (spec 7, 518); the rules already warned.
    ...(typeof options.audioName === 'string' && options.audioConfiguration === undefined && { audio_name: options.audioName }),
  };
}

function usesAudioOptions(post: PlatformPost): boolean {
  return ['audioName', 'audioConfiguration', 'audioVolume', 'videoVolume'].some((key) => post.options[key] !== undefined);
}

/** A container's progress: done, still waiting, or failed. */
async function containerState(ctx: PublishContext, id: string): Promise<'FINISHED' | 'IN_PROGRESS' | 'EXPIRED' | 'PUBLISHED' | PublishFailure> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'status_code,status' });
  if (!answer.ok) return classifyGraphError('instagram', answer);
  const code = answer.body.status_code;
  if (code === 'ERROR') return classifyContainerError('instagram', String(answer.body.status ?? ''));
  if (code === 'FINISHED' || code === 'EXPIRED' || code === 'PUBLISHED') return code;
  return 'IN_PROGRESS';
}

async function createContainer(ctx: PublishContext, fields: Record<string, unknown>): Promise<string | PublishFailure> {
  const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(ctx.account.accountId)}/media`, fields);
  if (!answer.ok) return classifyGraphError('instagram', answer);
  return String(answer.body.id);
}

const waiting = (state: InstagramPrepared, checkAfterMs = CONTAINER_CHECK_MS): PrepareWaiting => ({ kind: 'waiting', state, checkAfterMs });

export const instagramPublishAdapter: PublishAdapter = {
  platform: 'instagram',
  // Analytics, comments and replies (engagement.ts).
  ...instagramEngagement,
  // The 60-day token renews itself before it ends (meta/long-lived-token.ts; token-refresher.ts decides when).
  refresh: renewLongLivedToken('ig_refresh_token'),

  validate: (post) => validateInstagram(post),

  async prepare(ctx, previous) {
    const issues = validateInstagram(ctx.post);
    if (issues.length > 0) return issues[0]!;
    const state: InstagramPrepared = { ...(previous as InstagramPrepared | null) };
    const now = ctx.now();

    if (!state.accountChecked) {
      const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}`, { fields: 'account_type,username' });
      if (!answer.ok) return classifyGraphError('instagram', answer);
      if (answer.body.account_type === 'PERSONAL') {
        return failure(138, 'Personal instagram accounts cannot publish through the API; switch the account to a professional (business or creator) account.', {
          details: { accountType: 'PERSONAL' },
        });
      }
      // Reels audio options need the page-based (facebook) link; a direct instagram login cannot use them.
      const tokens = await ctx.account.tokens();
      if (tokens.linkMethod === 'instagram' && usesAudioOptions(ctx.post)) {
        return failure(514, 'instagram Reels audio options are not available on accounts linked with instagram login; link the account through its facebook page.');
      }
      state.accountChecked = true;
    }

    /** Runs one container step; an account-state error is waited out for about 50 s. */
    const step = async <T>(work: () => Promise<T | PublishFailure>): Promise<T | PublishFailure | PrepareWaiting> => {
      const result = await work();
      const failed = result as PublishFailure;
      if (failed?.kind === 'failed' && failed.code === 258 && failed.retryAvailable) {
        state.accountStateSince ??= now;
        if (now - state.accountStateSince < ACCOUNT_STATE_RETRY_MS) return waiting(state, ACCOUNT_STATE_CHECK_MS);
        return { ...failed, noAutoRetry: true };
      }
      delete state.accountStateSince;
      return result;
    };
    const isStop = (value: unknown): value is PublishFailure | PrepareWaiting => {
      const kind = (value as { kind?: unknown })?.kind;
      return kind === 'failed' || kind === 'waiting';
    };

    const { mediaUrls } = ctx.post;
    const carousel = mediaUrls.length > 1;
    if (carousel && !state.containerId) {
      const children = state.children ?? [];
      for (const url of mediaUrls.slice(children.length)) {
        const id = await step(() => createContainer(ctx, itemFields(ctx.post, url, true)));
        if (isStop(id)) return id;
        children.push(id);
        state.children = children;
        state.containerCreatedAt ??= now;
      }
      for (const child of children) {
        const status = await step(() => containerState(ctx, child));
        if (isStop(status)) return status;
        if (status === 'EXPIRED') return waiting({ ...state, children: [], containerCreatedAt: undefined }, 0);
        if (status !== 'FINISHED') return now - (state.containerCreatedAt ?? now) > CONTAINER_WAIT_MAX_MS ? timedOut() : waiting(state);
      }
    }
    if (!state.containerId) {
      const fields = carousel ? { media_type: 'CAROUSEL', children: state.children!.join(','), caption: ctx.post.text } : itemFields(ctx.post, mediaUrls[0]!, false);
      const id = await step(() => createContainer(ctx, fields));
      if (isStop(id)) return id;
      state.containerId = id;
      state.containerCreatedAt = now;
    }
    const status = await step(() => containerState(ctx, state.containerId!));
    if (isStop(status)) return status;
    if (status === 'EXPIRED') return waiting({ ...state, containerId: undefined, children: undefined, containerCreatedAt: undefined }, 0);
    if (status === 'IN_PROGRESS') return now - (state.containerCreatedAt ?? now) > CONTAINER_WAIT_MAX_MS ? timedOut() : waiting(state);
    return { ...state, ready: true };
  },

  async commit(ctx, preparedState): Promise<CommitResult> {
    const prepared = preparedState as InstagramPrepared;
    if (!prepared.containerId) return failure(138, 'instagram: no media container to publish.');
    const budget = await ctx.rateBudget?.take(`instagram:${ctx.account.accountId}`, INSTAGRAM_DAILY_POSTS, DAY_MS);
    if (budget && !budget.ok) {
      const retryAfter = Math.ceil(budget.retryAfterMs / 1000);
      return failure(435, `instagram allows ${INSTAGRAM_DAILY_POSTS} posts per rolling 24 hours for this account; try again in ${retryAfter} seconds.`, {
        retryAvailable: true,
        noAutoRetry: true,
        retryAfterMs: budget.retryAfterMs,
        details: { retryAfter, limit: INSTAGRAM_DAILY_POSTS },
      });
    }
    const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(ctx.account.accountId)}/media_publish`, { creation_id: prepared.containerId });
    if (!answer.ok) {
      if (budget?.ok) await ctx.rateBudget!.release(budget.useId);
      const classified = classifyGraphError('instagram', answer);
      return classified.code === 435 ? { ...classified, noAutoRetry: true } : classified;
    }
    const id = String(answer.body.id);
    const media = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'permalink' });
    const permalink = media.ok && typeof media.body.permalink === 'string' ? media.body.permalink : `https://www.instagram.com/${ctx.account.username ?? ''}`;
    return { kind: 'done', id, postUrl: permalink };
  },

  async confirm() {
    // media_publish answers with the media id: nothing is left to poll.
    return failure(101, 'Nothing to confirm on instagram.');
  },

  async reconcile(ctx, preparedState) {
    const prepared = preparedState as InstagramPrepared;
    if (!prepared.containerId) return null;
    const status = await containerState(ctx, prepared.containerId);
    if (status !== 'PUBLISHED') return null;
    const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}/media`, { fields: 'id,caption,timestamp,permalink', limit: 25 });
    if (!answer.ok) throw new Error(`instagram reconcile: Graph code ${answer.error.code}`);
    const data = Array.isArray(answer.body.data) ? (answer.body.data as { id?: unknown; caption?: unknown; permalink?: unknown }[]) : [];
    // Stories carry no caption (and on the network are listed under /stories): match what was sent.
    const caption = ctx.post.options.stories === true ? '' : ctx.post.text;
    const match = data.find((media) => (media.caption ?? '') === caption && typeof media.id === 'string');
    if (!match) {
      // Published, but not among the recent media: never publish it again.
      return failure(138, 'instagram published this container but the media could not be found; check the account.', { details: { containerId: prepared.containerId } });
    }
    return { kind: 'done', id: String(match.id), postUrl: typeof match.permalink === 'string' ? match.permalink : 'https://www.instagram.com/' };
  },

  async comment(ctx, networkPostId, text) {
    const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(networkPostId)}/comments`, { message: text });
    if (!answer.ok) return classifyGraphError('instagram', answer);
    return { kind: 'done', id: String(answer.body.id), postUrl: '' };
  },
};

function timedOut(): PublishFailure {
  return failure(436, `instagram did not finish processing the media within ${CONTAINER_WAIT_MAX_MS / 60_000} minutes; try again.`, { retryAvailable: true, noAutoRetry: true });
}
