/**
 * @module
 * The sandbox instagram Graph API at `/sandbox/instagram/{version}`, the content-publishing paths of
 * graph.instagram.com / graph.facebook.com:
 * - `GET  /{ig-user-id}?fields=account_type,username` → `{id, username, account_type}` (an account id ending in
 *   `-personal` is a PERSONAL account, which cannot publish);
 * - `POST /{ig-user-id}/media` → `{id}` of a container: `image_url`, or `video_url` with `media_type` REELS / STORIES /
 *   VIDEO (carousel item), `is_carousel_item`, `media_type: CAROUSEL` with `children`, `caption`, `share_to_feed`,
 *   `trial_params: {graduation_strategy}`, `audio_name`. Image containers finish at once; video containers after
 *   INSTAGRAM_VIDEO_CONTAINER_MS of the service clock;
 * - `GET  /{container-id}?fields=status_code,status` → IN_PROGRESS / FINISHED / ERROR / EXPIRED (24 h) / PUBLISHED;
 * - `POST /{ig-user-id}/media_publish {creation_id}` → `{id}` of the media; at most 50 per rolling 24 h per account
 *   (code 9, subcode 2207042, as the network answers);
 * - `GET  /{ig-user-id}/media` → `{data: [{id, caption, timestamp, permalink, media_type}]}`, newest first;
 * - `GET  /{media-id}?fields=permalink` and `POST /{media-id}/comments {message}` → `{id}`. No delete, as on the network.
 * - after a post is out (graph-engagement.ts): `GET /{media-id}/insights?metric=impressions,reach,likes,comments,
 *   saved,shares,views` (the `limited` fault: code 10, subcode 2108006, as for media from before the business
 *   conversion), `GET /{media-id}?fields=like_count,comments_count`, `GET /{ig-user-id}?fields=followers_count,
 *   follows_count,media_count`, `GET /{media-id}/comments` → `{data: [{id, text, username, timestamp, replies:
 *   {data}}]}`, `POST /{ig-comment-id}/replies {message}` → `{id}`, and the private reply
 *   `POST /{ig-user-id}/messages {recipient: {comment_id}, message: {text}}`.
 * Faults in the caption (docs/sandbox-faults.md): 138, 258 (2207085), 401, 435, 436 (container never finishes),
 * 440 (container ERROR 2207003), 500; 479 (the crawler cannot fetch any media URL: 9004 / 2207052) and
 * `crawler-blocked` (it cannot fetch media hosted anywhere but the service's own signed `/media/` addresses, as
 * when an origin host blocks Meta's crawler by robots.txt or 403).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import { publishContainer } from './container-publish.js';
import { faultMarker } from './faults.js';
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
import { sandboxStoreOf } from './sandbox-tokens.js';
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
import { insightsFaultOf } from './insights-faults.js';
import type { SandboxMedia, SandboxPost } from './store.js';
import { serveMetaLoginTokens } from './meta-tokens.js';

/** What Meta answers when its crawler cannot download a container's media URL. */
const CRAWLER_FAULT: GraphFault = { status: 400, code: 9004, subcode: 2207052, message: "Media download has failed. The media URI doesn't meet our requirements." };
const CRAWLER_BLOCKED_AT_ORIGIN = 'crawler-blocked';

export const INSTAGRAM_VIDEO_CONTAINER_MS = 3_000;
const CONTAINER_TTL_MS = 24 * 3600_000;
const PUBLISH_LIMIT = 50;
const CAPTION_MAX = 2_200;
const CONTAINERS = 'instagram:container';

/** Faults answered when the container is created or published. */
export const INSTAGRAM_FAULTS: Record<string, GraphFault> = {
  '138': { status: 400, code: 36003, subcode: 2207009, message: 'The submitted image with aspect ratio cannot be published.' },
  '258': { status: 400, code: 9, subcode: 2207085, message: 'Account state error.' },
  '326': { status: 403, code: 200, subcode: 1404078, message: 'To publish, the person managing this account must confirm their identity (Page Publishing Authorization).' },
  '401': { status: 400, code: 190, subcode: 460, message: 'Error validating access token: The session has been invalidated.' },
  '500': { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' },
  '479': CRAWLER_FAULT,
};
/** Faults of the container itself (it is created, then fails or never finishes) and of media_publish. */
const CONTAINER_FAULTS = new Set(['436', '440']);
const PUBLISH_FAULT_435: GraphFault = { status: 400, code: 9, subcode: 2207042, message: 'Application request limit reached: the maximum number of posts was published.', retryAfterSeconds: 3600 };

const MEDIA_INSIGHTS = ['impressions', 'reach', 'likes', 'comments', 'saved', 'shares', 'views'] as const;
const ACCOUNT_FIELDS = ['followers_count', 'follows_count', 'media_count'] as const;
/** Graph's answer for insights of media posted before the account became a business account. */
const SUBCODE_BEFORE_CONVERSION = 2108006;

type ContainerRecord = {
  media_type: string;
  caption: string;
  children: string[];
  fault: string | null;
  published_media_id: string | null;
  options: Record<string, unknown>;
};

export function sandboxInstagramRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  answerGraphErrors(routes);
  const permalink = (id: string) => `${deps.config.publicUrl}/sandbox/instagram/p/${encodeURIComponent(id)}`;
  // The hour-long login token for a 60-day one, and its renewal (meta-tokens.ts).
  serveMetaLoginTokens(routes, deps, 'instagram');

  async function userOf(c: Context<SandboxEnv>): Promise<string> {
    const user = c.req.param('user') ?? '';
    requireOwner(await graphAccount(deps, c, 'instagram'), user);
    return user;
  }

  function containerStatus(container: SandboxPost, now: number): { status_code: string; status: string } {
    const record = container.record as ContainerRecord;
    if (record.published_media_id) return { status_code: 'PUBLISHED', status: 'Published' };
    if (container.createdAt + CONTAINER_TTL_MS <= now) return { status_code: 'EXPIRED', status: 'Expired: the container was not published within 24 hours.' };
    if (container.readyAt > now || record.fault === '436') return { status_code: 'IN_PROGRESS', status: 'In Progress' };
    if (record.fault === '440') return { status_code: 'ERROR', status: 'Error: Media upload has failed with error code 2207003' };
    return { status_code: 'FINISHED', status: 'Finished' };
  }

  routes.post('/:version/:user/media', async (c) => {
    const user = await userOf(c);
    const body = await graphBody(c);
    const caption = optionalString(body, 'caption', 100_000) ?? '';
    if ([...caption].length > CAPTION_MAX) throw new GraphSandboxError(400, 100, 'Invalid parameter: the caption is longer than 2,200 characters.', 2207010);
    if ((caption.match(/#[\p{L}\p{N}_]+/gu) ?? []).length > 30) throw new GraphSandboxError(400, 100, 'Invalid parameter: more than 30 hashtags.', 2207010);
    const mediaType = typeof body.media_type === 'string' ? body.media_type : 'IMAGE';
    if (!['IMAGE', 'VIDEO', 'REELS', 'STORIES', 'CAROUSEL'].includes(mediaType)) throw new GraphSandboxError(400, 100, 'Invalid parameter: media_type');
    const marker = faultMarker(caption);
    if (marker && !CONTAINER_FAULTS.has(marker) && marker !== '435' && marker !== CRAWLER_BLOCKED_AT_ORIGIN) throwGraphFault('instagram', INSTAGRAM_FAULTS, caption);
    const now = deps.clock();
    let media: SandboxMedia[] = [];
    let children: string[] = [];
    if (mediaType === 'CAROUSEL') {
      children = (Array.isArray(body.children) ? body.children : String(body.children ?? '').split(',')).map(String).filter(Boolean);
      if (children.length < 2 || children.length > 10) throw new GraphSandboxError(400, 100, 'Invalid parameter: a carousel has 2 to 10 children.');
      for (const child of children) {
        const found = await store().findByNetworkId(CONTAINERS, user, child);
        if (!found || containerStatus(found, now).status_code !== 'FINISHED') throw new GraphSandboxError(400, 9007, 'Media ID is not available: a child is not finished.', 2207027);
        media.push(...found.media);
      }
    } else if (body.video_url !== undefined) {
      media = [{ url: urlParam(body, 'video_url'), kind: 'video' }];
      if (mediaType === 'IMAGE') throw new GraphSandboxError(400, 100, 'Invalid parameter: a video needs media_type REELS, STORIES or VIDEO.');
    } else {
      media = [{ url: urlParam(body, 'image_url'), kind: 'image' }];
    }
    if (marker === CRAWLER_BLOCKED_AT_ORIGIN && media.some((item) => !item.url.startsWith(`${deps.config.publicUrl}/media/`))) {
      throw new GraphSandboxError(CRAWLER_FAULT.status, CRAWLER_FAULT.code, `Sandbox fault ${marker}: ${CRAWLER_FAULT.message}`, CRAWLER_FAULT.subcode);
    }
    const video = media.some((item) => item.kind === 'video');
    const id = graphId();
    const record: ContainerRecord = {
      media_type: mediaType,
      caption,
      children,
      fault: marker && CONTAINER_FAULTS.has(marker) ? marker : marker === '435' ? '435' : null,
      published_media_id: null,
      options: {
        ...(body.is_carousel_item !== undefined && { is_carousel_item: body.is_carousel_item }),
        ...(body.share_to_feed !== undefined && { share_to_feed: body.share_to_feed }),
        ...(body.trial_params !== undefined && { trial_params: body.trial_params }),
        ...(body.audio_name !== undefined && { audio_name: body.audio_name }),
      },
    };
    await store().insertPost({
      platform: CONTAINERS,
      accountId: user,
      networkId: id,
      clientKey: null,
      text: caption,
      media,
      record,
      status: 'processing',
      error: null,
      createdAt: now,
      readyAt: video ? now + INSTAGRAM_VIDEO_CONTAINER_MS : now,
    });
    return c.json({ id });
  });

  routes.post('/:version/:user/media_publish', async (c) => {
    const user = await userOf(c);
    const body = await graphBody(c);
    const creationId = typeof body.creation_id === 'string' ? body.creation_id : '';
    const container = creationId ? await store().findByNetworkId(CONTAINERS, user, creationId) : null;
    if (!container) throw new GraphSandboxError(400, 100, 'Invalid parameter: creation_id', 2207006);
    const now = deps.clock();
    const status = containerStatus(container, now).status_code;
    if (status === 'PUBLISHED') throw new GraphSandboxError(400, 9007, 'The container was already published.', 2207019);
    if (status === 'EXPIRED') throw new GraphSandboxError(400, 9007, 'The media has expired.', 2207020);
    if (status !== 'FINISHED') throw new GraphSandboxError(400, 9007, 'Media ID is not available: the media is not ready for publishing.', 2207027);
    const record = container.record as ContainerRecord;
    if (record.fault === '435' || (await store().countSince('instagram', user, now - 24 * 3600_000)) >= PUBLISH_LIMIT) {
      const fault = PUBLISH_FAULT_435;
      throw new GraphSandboxError(fault.status, fault.code, fault.message, fault.subcode, fault.retryAfterSeconds);
    }
    // One transaction, as Instagram publishes a container atomically (container-publish.ts).
    const id = await publishContainer(
      deps,
      container,
      async (tx) =>
        (
          await tx.insertPost({
            platform: 'instagram',
            accountId: user,
            networkId: graphId(),
            clientKey: null,
            text: record.caption,
            media: container.media,
            record: { media_type: record.media_type, container_id: container.networkId, ...record.options },
            status: 'published',
            error: null,
            createdAt: now,
            readyAt: now,
          })
        )?.networkId ?? null,
      (publishedId) => ({ ...record, published_media_id: publishedId }),
    );
    if (id === null) throw new GraphSandboxError(400, 9007, 'The container was already published.', 2207019);
    return c.json({ id });
  });

  routes.get('/:version/:user/media', async (c) => {
    const user = await userOf(c);
    const posts = await store().listForAccounts([{ platform: 'instagram', accountId: user }], 100);
    const data = posts.map((post) => ({
      id: post.networkId,
      caption: post.text,
      timestamp: new Date(post.createdAt).toISOString(),
      permalink: permalink(post.networkId),
      media_type: (post.record as { media_type?: string } | null)?.media_type ?? 'IMAGE',
    }));
    return c.json({ data });
  });

  routes.get('/p/:id', async (c) => {
    const post = await store().findByPlatformId('instagram', c.req.param('id'));
    if (!post) return c.text('No such sandbox instagram post.', 404);
    return c.text(`Sandbox instagram post ${post.networkId}\n\n${post.text}`);
  });

  routes.post('/:version/:id/comments', async (c) => {
    const owner = await graphAccount(deps, c, 'instagram');
    const post = await store().findByPlatformId('instagram', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
    const body = await graphBody(c);
    const message = optionalString(body, 'message', 2_200) ?? '';
    if (message.trim() === '') throw new GraphSandboxError(400, 100, 'Invalid parameter: message');
    throwGraphFault('instagram', INSTAGRAM_FAULTS, message);
    const comment = await store().addComment(post.id, message, [], deps.clock());
    return c.json({ id: comment.id });
  });

  routes.get('/:version/:id/insights', async (c) => {
    const owner = await graphAccount(deps, c, 'instagram');
    const post = await store().findByPlatformId('instagram', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
    const asked = requestedMetrics(c, MEDIA_INSIGHTS);
    throwInsightsFault(deps, 'instagram', post.accountId);
    if (insightsFaultOf(deps.storage, 'instagram', post.accountId) === 'limited') {
      throw new GraphSandboxError(400, 10, '(#10) Not enough viewers for the media to show insights: the media was posted before the business account conversion.', SUBCODE_BEFORE_CONVERSION);
    }
    return c.json(insightsAnswer(post.networkId, postMetricsOf(deps, 'instagram', post), asked, partialCount(deps, 'instagram', post.accountId, 2)));
  });

  routes.get('/:version/:id/comments', async (c) => {
    const owner = await graphAccount(deps, c, 'instagram');
    const post = await store().findByPlatformId('instagram', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
    const comments = await commentsOf(deps, post);
    const shape = (comment: (typeof comments)[number]) => ({ id: comment.id, text: comment.text, username: comment.author ?? post.accountId.replace(/^sandbox-/, ''), timestamp: graphTime(comment.createdAt) });
    // Top-level comments, each with its replies (instagram has one level of replies).
    const data = comments
      .filter((comment) => comment.replyTo === null)
      .map((comment) => ({ ...shape(comment), replies: { data: comments.filter((reply) => reply.replyTo === comment.id).map(shape) } }));
    return c.json({ data });
  });

  routes.post('/:version/:id/replies', async (c) => {
    const owner = await graphAccount(deps, c, 'instagram');
    const parent = await findComment(deps, 'instagram', c.req.param('id'));
    if (!parent || owner !== parent.accountId) throw new GraphSandboxError(400, 100, 'Unsupported post request. Object does not exist or cannot be loaded.', 33);
    const body = await graphBody(c);
    const message = optionalString(body, 'message', 2_200) ?? '';
    if (message.trim() === '') throw new GraphSandboxError(400, 100, 'Invalid parameter: message');
    throwGraphFault('instagram', INSTAGRAM_FAULTS, message);
    return c.json({ id: await addOwnComment(deps, parent.postRowId, message, parent.id) });
  });

  routes.post('/:version/:user/messages', async (c) => answerPrivateReply(deps, c, 'instagram', await userOf(c)));

  routes.get('/:version/:id', async (c) => {
    const owner = await graphAccount(deps, c, 'instagram');
    const id = c.req.param('id');
    const now = deps.clock();
    const fields = (c.req.query('fields') ?? '').split(',');
    if (owner === id) {
      const account = { id, username: id.replace(/^sandbox-/, ''), account_type: id.endsWith('-personal') ? 'PERSONAL' : 'BUSINESS' };
      if (!ACCOUNT_FIELDS.some((field) => fields.includes(field))) return c.json(account);
      // The account's counts: the analytics faults apply (`partial` leaves the first one out).
      throwInsightsFault(deps, 'instagram', id);
      const grown = await accountMetricsOf(deps, 'instagram', await store().listForAccounts([{ platform: 'instagram', accountId: id }], 1000));
      const values: Record<string, number> = { followers_count: grown.followersCount ?? 0, follows_count: grown.followsCount ?? 0, media_count: grown.mediaCount ?? 0 };
      const answered = ACCOUNT_FIELDS.slice(partialCount(deps, 'instagram', id, 1));
      return c.json({ ...account, ...Object.fromEntries(answered.map((field) => [field, values[field]])) });
    }
    const container = await store().findByPlatformId(CONTAINERS, id);
    if (container && owner === container.accountId) return c.json({ id, ...containerStatus(container, now) });
    const post = await store().findByPlatformId('instagram', id);
    if (post && owner === post.accountId) {
      const counts = fields.includes('like_count') || fields.includes('comments_count');
      if (counts) throwInsightsFault(deps, 'instagram', post.accountId);
      const grown = counts ? postMetricsOf(deps, 'instagram', post) : {};
      return c.json({
        id,
        caption: post.text,
        permalink: permalink(id),
        timestamp: new Date(post.createdAt).toISOString(),
        ...(counts && { like_count: grown.likes ?? 0, comments_count: grown.comments ?? 0 }),
      });
    }
    throw new GraphSandboxError(400, 100, 'Unsupported get request. Object does not exist or cannot be loaded.', 33);
  });

  return routes;
}
