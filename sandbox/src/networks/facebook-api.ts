/**
 * @module
 * The sandbox facebook Pages API at `/sandbox/facebook/{version}`, the paths and payloads of graph.facebook.com:
 * - `POST /{page-id}/feed {message, link?, attached_media?: [{media_fbid}]}` → `{id: "{page-id}_{post-id}"}`
 * - `POST /{page-id}/photos {url, message?, published?}` → `{id, post_id}`; `published: false` → `{id}` (for
 *   attached_media)
 * - `POST /{page-id}/videos {file_url, description?}` → `{id}`; the video is `processing` for
 *   FACEBOOK_VIDEO_PROCESSING_MS of the service clock, then `ready`
 * - reels: `POST /{page-id}/video_reels {upload_phase: start}` → `{video_id, upload_url}`; the hosted upload
 *   `POST /sandbox/facebook/video-upload/{version}/{video-id}` with header `file_url`; then
 *   `POST /{page-id}/video_reels {upload_phase: finish, video_id, video_state: PUBLISHED, description}` → `{success}`
 * - `GET /{page-id}/published_posts?limit&after` → `{data: [{id, message, created_time, permalink_url}], paging?: {cursors:
 *   {after}, next}}`, newest first
 * - `GET /{object-id}?fields=…` → `{id, permalink_url, message?, status?: {video_status}}`; `GET /{page-id}?fields=access_token`
 *   → the page's token (meta-tokens.ts)
 * - `POST /{object-id}/comments {message, attachment_url?}` → `{id}` (under a post, or a reply under a comment);
 *   `DELETE /{object-id}` → `{success: true}`
 * - after a post is out (graph-engagement.ts): `GET /{post-id}/insights?metric=…` (post_impressions,
 *   post_impressions_unique, post_reactions_by_type_total, post_clicks, post_video_views,
 *   post_activity_by_action_type), `GET /{page-id}?fields=fan_count,followers_count`,
 *   `GET /{post-id}/comments` → `{data: [{id, message, from: {id, name}, created_time, parent?: {id}}]}`, and the
 *   private reply `POST /{page-id}/messages {recipient: {comment_id}, message: {text}}`
 * Faults in the message or description: 249 and 476 (code 368), 429 (code 4), 401 (code 190), 500 (code 2).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import {
  GraphSandboxError,
  answerGraphErrors,
  graphAccount,
  graphBody,
  graphId,
  optionalString,
  requireOwner,
  throwGraphFault,
  urlParam,
  type GraphFault,
} from './graph-sandbox.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import { pageTokenAnswer } from './meta-tokens.js';
import {
  accountMetricsOf,
  addOwnComment,
  answerPrivateReply,
  commentsOf,
  findComment,
  graphTime,
  insightsAnswer,
  partialCount,
  postMetricsOf,
  requestedMetrics,
  throwInsightsFault,
} from './graph-engagement.js';
import { effectiveStatus, type SandboxMedia, type SandboxPost } from './store.js';

export const FACEBOOK_VIDEO_PROCESSING_MS = 5_000;
const TEXT_MAX = 63_206;
/** Unpublished photos and reel uploads are kept under their own platform name: they are not posts of the feed. */
const PARTS = 'facebook:part';

export const FACEBOOK_FAULTS: Record<string, GraphFault> = {
  '249': { status: 400, code: 368, message: 'The action attempted has been deemed abusive or is otherwise disallowed.' },
  '326': { status: 403, code: 200, subcode: 1404078, message: 'To publish, the person managing this account must confirm their identity (Page Publishing Authorization).' },
  '476': { status: 400, code: 368, subcode: 1390008, message: 'You cannot post right now: posting from this page is restricted.' },
  '429': { status: 400, code: 4, message: 'Application request limit reached', retryAfterSeconds: 60 },
  '401': { status: 400, code: 190, subcode: 460, message: 'Error validating access token: The session has been invalidated.' },
  '500': { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' },
};

const POST_INSIGHTS = ['post_impressions', 'post_impressions_unique', 'post_reactions_by_type_total', 'post_clicks', 'post_video_views', 'post_activity_by_action_type'] as const;
const PAGE_FIELDS = ['fan_count', 'followers_count'] as const;

/** The post's grown numbers (insight-metrics.ts names) under Graph's insight names and breakdowns. */
function postInsightValues(metrics: Record<string, number>): Record<string, unknown> {
  const reactions = metrics.reactions ?? 0;
  const loves = Math.floor(reactions / 4);
  return {
    post_impressions: metrics.impressions,
    post_impressions_unique: metrics.reach,
    post_reactions_by_type_total: { like: reactions - loves, love: loves },
    post_clicks: metrics.clicks,
    post_video_views: metrics.videoViews,
    post_activity_by_action_type: { comment: metrics.comments, share: metrics.shares, like: reactions },
  };
}

export function sandboxFacebookRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  answerGraphErrors(routes);
  const permalink = (id: string) => `${deps.config.publicUrl}/sandbox/facebook/p/${encodeURIComponent(id)}`;

  async function createPost(page: string, networkId: string, text: string, media: SandboxMedia[], record: Record<string, unknown>, processing = false): Promise<SandboxPost> {
    const now = deps.clock();
    const post = await store().insertPost({
      platform: 'facebook',
      accountId: page,
      networkId,
      clientKey: null,
      text,
      media,
      record,
      status: processing ? 'processing' : 'published',
      error: null,
      createdAt: now,
      readyAt: processing ? now + FACEBOOK_VIDEO_PROCESSING_MS : now,
    });
    if (!post) throw new GraphSandboxError(500, 2, 'Sandbox id clash; retry.');
    return post;
  }

  async function pageOf(c: Context<SandboxEnv>): Promise<string> {
    const page = c.req.param('page') ?? '';
    requireOwner(await graphAccount(deps, c, 'facebook'), page);
    return page;
  }

  routes.post('/:version/:page/feed', async (c) => {
    const page = await pageOf(c);
    const body = await graphBody(c);
    const message = optionalString(body, 'message', TEXT_MAX) ?? '';
    const link = body.link === undefined ? null : urlParam(body, 'link');
    const attached = body.attached_media;
    const media: SandboxMedia[] = [];
    if (attached !== undefined) {
      if (!Array.isArray(attached) || attached.length > 10) throw new GraphSandboxError(400, 100, 'Invalid parameter: attached_media');
      for (const entry of attached as { media_fbid?: unknown }[]) {
        const part = typeof entry?.media_fbid === 'string' ? await store().findByNetworkId(PARTS, page, entry.media_fbid) : null;
        if (!part) throw new GraphSandboxError(400, 100, 'Invalid parameter: attached_media media_fbid not found');
        media.push(...part.media);
      }
    }
    if (message.trim() === '' && media.length === 0 && !link) throw new GraphSandboxError(400, 100, 'Invalid parameter: the post is empty.');
    throwGraphFault('facebook', FACEBOOK_FAULTS, message);
    const post = await createPost(page, `${page}_${graphId()}`, message, media, { message, link, attached_media: attached ?? null });
    return c.json({ id: post.networkId });
  });

  routes.post('/:version/:page/photos', async (c) => {
    const page = await pageOf(c);
    const body = await graphBody(c);
    const url = urlParam(body, 'url');
    const message = optionalString(body, 'message', TEXT_MAX) ?? optionalString(body, 'caption', TEXT_MAX) ?? '';
    throwGraphFault('facebook', FACEBOOK_FAULTS, message);
    const id = graphId();
    if (body.published === false || body.published === 'false') {
      await store().insertPost({ platform: PARTS, accountId: page, networkId: id, clientKey: null, text: '', media: [{ url, kind: 'image' }], record: { photo: true }, status: 'published', error: null, createdAt: deps.clock(), readyAt: deps.clock() });
      return c.json({ id });
    }
    const post = await createPost(page, `${page}_${id}`, message, [{ url, kind: 'image' }], { message, photo_id: id });
    return c.json({ id, post_id: post.networkId });
  });

  routes.post('/:version/:page/videos', async (c) => {
    const page = await pageOf(c);
    const body = await graphBody(c);
    const url = urlParam(body, 'file_url');
    const description = optionalString(body, 'description', TEXT_MAX) ?? '';
    throwGraphFault('facebook', FACEBOOK_FAULTS, description);
    const post = await createPost(page, graphId(), description, [{ url, kind: 'video' }], { description, video: true }, true);
    return c.json({ id: post.networkId });
  });

  routes.post('/:version/:page/video_reels', async (c) => {
    const page = await pageOf(c);
    const body = await graphBody(c);
    const now = deps.clock();
    if (body.upload_phase === 'start') {
      const id = graphId();
      await store().insertPost({ platform: PARTS, accountId: page, networkId: id, clientKey: null, text: '', media: [], record: { reel: true }, status: 'processing', error: null, createdAt: now, readyAt: now });
      return c.json({ video_id: id, upload_url: `${deps.config.publicUrl}/sandbox/facebook/video-upload/${c.req.param('version')}/${id}` });
    }
    if (body.upload_phase !== 'finish') throw new GraphSandboxError(400, 100, 'Invalid parameter: upload_phase');
    const videoId = typeof body.video_id === 'string' ? body.video_id : '';
    const part = await store().findByNetworkId(PARTS, page, videoId);
    if (!part || part.media.length === 0) throw new GraphSandboxError(400, 100, 'Invalid parameter: the video was not uploaded.');
    if (body.video_state !== 'PUBLISHED') throw new GraphSandboxError(400, 100, 'Invalid parameter: video_state');
    const description = optionalString(body, 'description', TEXT_MAX) ?? '';
    throwGraphFault('facebook', FACEBOOK_FAULTS, description);
    const existing = await store().findByNetworkId('facebook', page, videoId);
    if (!existing) await createPost(page, videoId, description, part.media, { description, reel: true }, true);
    return c.json({ success: true });
  });

  routes.post('/video-upload/:version/:video', async (c) => {
    const tokenAccount = await graphAccount(deps, c, 'facebook');
    const fileUrl = c.req.header('file_url') ?? '';
    if (!/^https?:\/\/\S{1,2040}$/.test(fileUrl)) throw new GraphSandboxError(400, 100, 'Invalid parameter: file_url header');
    const part = await store().findByPlatformId(PARTS, c.req.param('video'));
    if (!part) throw new GraphSandboxError(404, 100, 'Unknown video id.');
    requireOwner(tokenAccount, part.accountId);
    // The upload row keeps the video the reel will publish at `finish`.
    await store().updatePost(part.id, { status: 'published', record: part.record, readyAt: deps.clock(), media: [{ url: fileUrl, kind: 'video' }] });
    return c.json({ success: true });
  });

  // The permalink: a page a browser (and a test) can open.
  routes.get('/p/:id', async (c) => {
    const post = await store().findByPlatformId('facebook', c.req.param('id'));
    if (!post) return c.text('No such sandbox facebook post.', 404);
    return c.text(`Sandbox facebook post ${post.networkId}\n\n${post.text}`);
  });

  routes.get('/:version/:page/published_posts', async (c) => {
    const page = await pageOf(c);
    // Graph cursor paging: `after` from `paging.cursors.after`; `paging.next` only when more follow.
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 25) || 25, 1), 100);
    const listed = await store().pageForAccount('facebook', page, limit, c.req.query('after') || null);
    const data = listed.posts.map((post) => ({ id: post.networkId, message: post.text, created_time: new Date(post.createdAt).toISOString(), permalink_url: permalink(post.networkId) }));
    return c.json({ data, ...(listed.next && { paging: { cursors: { after: listed.next }, next: `${c.req.url.split('?')[0]}?limit=${limit}&after=${encodeURIComponent(listed.next)}` } }) });
  });

  routes.get('/:version/:id', async (c) => {
    const fields = (c.req.query('fields') ?? '').split(',');
    if (fields.includes('access_token')) {
      // The page's own token (meta-tokens.ts), asked for with a user token of that page.
      const user = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'facebook', 'access', deps.clock());
      if (!user.ok) throw new GraphSandboxError(400, 190, 'Invalid OAuth access token - Cannot parse access token');
      requireOwner(user.accountId, c.req.param('id'));
      return pageTokenAnswer(deps, c, user);
    }
    const owner = await graphAccount(deps, c, 'facebook');
    if (owner === c.req.param('id') && PAGE_FIELDS.some((field) => fields.includes(field))) {
      // The page itself: its follower counts (the `partial` fault leaves the first one out).
      throwInsightsFault(deps, 'facebook', owner);
      const grown = await accountMetricsOf(deps, 'facebook', await store().listForAccounts([{ platform: 'facebook', accountId: owner }], 1000));
      const answered = PAGE_FIELDS.slice(partialCount(deps, 'facebook', owner, 1));
      const values: Record<string, number> = { fan_count: grown.fanCount ?? 0, followers_count: grown.followersCount ?? 0 };
      return c.json({ id: owner, ...Object.fromEntries(answered.map((field) => [field, values[field]])) });
    }
    const post = await store().findByPlatformId('facebook', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
    const status = effectiveStatus(post, deps.clock());
    const video = post.media.some((item) => item.kind === 'video');
    return c.json({
      id: post.networkId,
      message: post.text,
      permalink_url: permalink(post.networkId),
      ...(video && { status: { video_status: status === 'processing' ? 'processing' : status === 'failed' ? 'error' : 'ready' } }),
    });
  });

  routes.post('/:version/:id/comments', async (c) => {
    const owner = await graphAccount(deps, c, 'facebook');
    const id = c.req.param('id');
    const post = await store().findByPlatformId('facebook', id);
    // Not a post: a comment, and this is a reply under it.
    const parent = post ? null : await findComment(deps, 'facebook', id);
    const accountId = post?.accountId ?? parent?.accountId;
    if (!accountId || owner !== accountId) throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
    const body = await graphBody(c);
    const message = optionalString(body, 'message', 8000) ?? '';
    const attachment = body.attachment_url === undefined ? null : urlParam(body, 'attachment_url');
    if (message.trim() === '' && !attachment) throw new GraphSandboxError(400, 100, 'Invalid parameter: message');
    throwGraphFault('facebook', FACEBOOK_FAULTS, message);
    if (parent) return c.json({ id: await addOwnComment(deps, parent.postRowId, message, parent.id) });
    const comment = await store().addComment(post!.id, message, attachment ? [{ url: attachment, kind: 'image' }] : [], deps.clock());
    return c.json({ id: comment.id });
  });

  routes.get('/:version/:id/comments', async (c) => {
    const owner = await graphAccount(deps, c, 'facebook');
    const post = await store().findByPlatformId('facebook', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
    const data = (await commentsOf(deps, post)).map((comment) => ({
      id: comment.id,
      message: comment.text,
      from: comment.author === null ? { id: post.accountId, name: post.accountId } : { id: `user-${comment.author}`, name: comment.author },
      created_time: graphTime(comment.createdAt),
      ...(comment.replyTo !== null && { parent: { id: comment.replyTo } }),
    }));
    return c.json({ data, paging: { cursors: { before: 'MAZDZD', after: 'MAZDZD' } } });
  });

  routes.get('/:version/:id/insights', async (c) => {
    const owner = await graphAccount(deps, c, 'facebook');
    const post = await store().findByPlatformId('facebook', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
    const asked = requestedMetrics(c, POST_INSIGHTS);
    throwInsightsFault(deps, 'facebook', post.accountId);
    const values = postInsightValues(postMetricsOf(deps, 'facebook', post));
    return c.json(insightsAnswer(post.networkId, values, asked, partialCount(deps, 'facebook', post.accountId, 2)));
  });

  routes.post('/:version/:page/messages', async (c) => answerPrivateReply(deps, c, 'facebook', await pageOf(c)));

  routes.delete('/:version/:id', async (c) => {
    const owner = await graphAccount(deps, c, 'facebook');
    const post = await store().findByPlatformId('facebook', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
    await store().markDeleted(post.id, deps.clock());
    return c.json({ success: true });
  });

  return routes;
}
