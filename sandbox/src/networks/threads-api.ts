/**
 * @module
 * The sandbox threads API at `/sandbox/threads/{version}`, the paths and payloads of graph.threads.net:
 * - `POST /{threads-user-id}/threads` → `{id}` of a container: `media_type` TEXT / IMAGE / VIDEO / CAROUSEL, `text`
 *   (≤500 characters), `image_url`, `video_url`, `is_carousel_item`, `children`, `reply_to_id`,
 *   `allowlisted_country_codes`. Text and image containers finish at once, video after THREADS_VIDEO_CONTAINER_MS of
 *   the service clock;
 * - `GET /{container-id}?fields=status,error_message` → IN_PROGRESS / FINISHED / PUBLISHED / EXPIRED;
 * - `POST /{threads-user-id}/threads_publish {creation_id}` → `{id}`; a container not finished yet → code 24,
 *   subcode 4279009, as the network answers a publish that comes too early;
 * - `GET /{threads-user-id}/threads` → `{data: [{id, text, timestamp, permalink}]}`; `GET /{media-id}?fields=permalink`.
 * - `GET /{threads-user-id}/replies?limit&after` → `{data: [{id, text, timestamp, permalink, is_reply, replied_to: {id}}],
 *   paging?}`: the account's own replies (a first comment, a chain's later parts), newest first, as the network lists
 *   them apart from the audience's comments.
 * - after a post is out (graph-engagement.ts): `GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes,
 *   shares`, `GET /{threads-user-id}/threads_insights?metric=followers_count` (`total_value`),
 *   `GET /{media-id}/conversation` → `{data: [{id, text, username, timestamp, replied_to: {id}}]}` (the comments the
 *   audience made, every depth); a container with `reply_to_id` naming one of those comments publishes as a reply
 *   under it.
 * - `GET /me?fields=id,username,is_eligible_for_geo_gating`: the token's account; eligible for geo gating
 *   (`allowlisted_country_codes`) unless switched off with `PUT /sandbox/threads/accounts/{id}/geo-gating
 *   {eligible: false}` (a test switch, like a payment sandbox's; kept in memory per service).
 * No delete (the API has none). Faults in the text: 379 (code 100, subcode 4279001), 522 (the container never
 * finishes), 401, 500.
 */
import type { SandboxEnv, SandboxHost, Storage } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import { decodeJwt } from 'jose';
import { publishContainer } from './container-publish.js';
import { faultMarker } from './faults.js';
import { GraphSandboxError, answerGraphErrors, graphAccount, graphBody, graphId, optionalString, requireOwner, throwGraphFault, urlParam, type GraphFault } from './graph-sandbox.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import { accountMetricsOf, addOwnComment, commentsOf, findComment, graphTime, insightsAnswer, partialCount, postMetricsOf, requestedMetrics, throwInsightsFault } from './graph-engagement.js';
import type { SandboxMedia, SandboxPost } from './store.js';
import { serveMetaLoginTokens } from './meta-tokens.js';

export const THREADS_VIDEO_CONTAINER_MS = 3_000;
const TEXT_MAX = 500;
const CONTAINERS = 'threads:container';
const CONTAINER_TTL_MS = 24 * 3600_000;

export const THREADS_FAULTS: Record<string, GraphFault> = {
  '379': { status: 400, code: 100, subcode: 4279001, message: 'The threads post could not be created.' },
  '326': { status: 403, code: 200, subcode: 1404078, message: 'To publish, the person managing this account must confirm their identity (Page Publishing Authorization).' },
  '401': { status: 400, code: 190, subcode: 460, message: 'Error validating access token: The session has been invalidated.' },
  '500': { status: 500, code: 2, message: 'An unexpected error has occurred. Please retry your request later.' },
};

const MEDIA_INSIGHTS = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'] as const;
const USER_INSIGHTS = ['followers_count'] as const;

interface ContainerRecord {
  media_type: string;
  reply_to_id: string | null;
  allowlisted_country_codes: string[] | null;
  never_finishes: boolean;
  published_id: string | null;
}

// The accounts switched to "not eligible for geo gating", per service (its storage).
const ineligibleByStorage = new WeakMap<Storage, Set<string>>();
function ineligibleOf(storage: Storage): Set<string> {
  let set = ineligibleByStorage.get(storage);
  if (!set) ineligibleByStorage.set(storage, (set = new Set()));
  return set;
}

export function sandboxThreadsRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  answerGraphErrors(routes);
  const permalink = (id: string) => `${deps.config.publicUrl}/sandbox/threads/p/${encodeURIComponent(id)}`;
  // The hour-long login token for a 60-day one, and its renewal (meta-tokens.ts).
  serveMetaLoginTokens(routes, deps, 'threads');

  async function userOf(c: Context<SandboxEnv>): Promise<string> {
    const user = c.req.param('user') ?? '';
    requireOwner(await graphAccount(deps, c, 'threads'), user);
    return user;
  }

  function statusOf(container: SandboxPost, now: number): string {
    const record = container.record as unknown as ContainerRecord;
    if (record.published_id) return 'PUBLISHED';
    if (container.createdAt + CONTAINER_TTL_MS <= now) return 'EXPIRED';
    if (record.never_finishes || container.readyAt > now) return 'IN_PROGRESS';
    return 'FINISHED';
  }

  routes.post('/:version/:user/threads', async (c) => {
    const user = await userOf(c);
    const body = await graphBody(c);
    const text = optionalString(body, 'text', 10_000) ?? '';
    if ([...text].length > TEXT_MAX) throw new GraphSandboxError(400, 100, 'Param text must be at most 500 characters long.', 4279001);
    const mediaType = typeof body.media_type === 'string' ? body.media_type : '';
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(mediaType)) throw new GraphSandboxError(400, 100, 'Invalid parameter: media_type');
    const marker = faultMarker(text);
    if (marker !== '522') throwGraphFault('threads', THREADS_FAULTS, text);
    const now = deps.clock();
    let media: SandboxMedia[] = [];
    if (mediaType === 'IMAGE') media = [{ url: urlParam(body, 'image_url'), kind: 'image' }];
    if (mediaType === 'VIDEO') media = [{ url: urlParam(body, 'video_url'), kind: 'video' }];
    if (mediaType === 'CAROUSEL') {
      const children = (Array.isArray(body.children) ? body.children : String(body.children ?? '').split(',')).map(String).filter(Boolean);
      if (children.length < 2 || children.length > 20) throw new GraphSandboxError(400, 100, 'A carousel has 2 to 20 children.');
      for (const child of children) {
        const found = await store().findByNetworkId(CONTAINERS, user, child);
        if (!found || statusOf(found, now) !== 'FINISHED') throw new GraphSandboxError(400, 24, 'Media Not Found: a carousel item is not ready.', 4279009);
        media.push(...found.media);
      }
    }
    if (mediaType === 'TEXT' && text.trim() === '') throw new GraphSandboxError(400, 100, 'A text post needs text.');
    const replyTo = optionalString(body, 'reply_to_id', 64);
    if (replyTo && !(await store().findByNetworkId('threads', user, replyTo)) && (await findComment(deps, 'threads', replyTo))?.accountId !== user) {
      throw new GraphSandboxError(400, 100, 'Invalid parameter: reply_to_id', 33);
    }
    const countries = body.allowlisted_country_codes;
    if (countries !== undefined && (!Array.isArray(countries) || countries.some((code) => typeof code !== 'string' || !/^[A-Z]{2}$/.test(code)))) {
      throw new GraphSandboxError(400, 100, 'Invalid parameter: allowlisted_country_codes');
    }
    const record: ContainerRecord = {
      media_type: mediaType,
      reply_to_id: replyTo,
      allowlisted_country_codes: (countries as string[] | undefined) ?? null,
      never_finishes: marker === '522',
      published_id: null,
    };
    const id = graphId();
    const video = media.some((item) => item.kind === 'video');
    await store().insertPost({
      platform: CONTAINERS,
      accountId: user,
      networkId: id,
      clientKey: null,
      text,
      media,
      record: record as unknown as Record<string, unknown>,
      status: 'processing',
      error: null,
      createdAt: now,
      readyAt: video ? now + THREADS_VIDEO_CONTAINER_MS : now,
    });
    return c.json({ id });
  });

  routes.post('/:version/:user/threads_publish', async (c) => {
    const user = await userOf(c);
    const body = await graphBody(c);
    const creationId = typeof body.creation_id === 'string' ? body.creation_id : '';
    const container = creationId ? await store().findByNetworkId(CONTAINERS, user, creationId) : null;
    if (!container) throw new GraphSandboxError(400, 100, 'Invalid parameter: creation_id', 33);
    const now = deps.clock();
    const status = statusOf(container, now);
    if (status === 'PUBLISHED') throw new GraphSandboxError(400, 100, 'The container was already published.', 4279001);
    if (status !== 'FINISHED') throw new GraphSandboxError(400, 24, 'Media Not Found: the media is not ready to be published.', 4279009);
    const record = container.record as unknown as ContainerRecord;
    const answered = record.reply_to_id ? await findComment(deps, 'threads', record.reply_to_id) : null;
    // One transaction, as Threads publishes a container atomically (container-publish.ts).
    const id = await publishContainer(
      deps,
      container,
      async (tx, sql) => {
        // A reply to someone's comment: it joins the conversation under the post.
        if (answered) return addOwnComment(deps, answered.postRowId, container.text, answered.id, sql);
        const post = await tx.insertPost({
          platform: 'threads',
          accountId: user,
          networkId: graphId(),
          clientKey: record.reply_to_id,
          text: container.text,
          media: container.media,
          record: { media_type: record.media_type, reply_to_id: record.reply_to_id, allowlisted_country_codes: record.allowlisted_country_codes, container_id: container.networkId },
          status: 'published',
          error: null,
          createdAt: now,
          readyAt: now,
        });
        return post?.networkId ?? null;
      },
      (publishedId) => ({ ...record, published_id: publishedId }) as unknown as Record<string, unknown>,
    );
    if (id === null) throw new GraphSandboxError(400, 100, 'The container was already published.', 4279001);
    return c.json({ id });
  });

  routes.get('/:version/:user/threads', async (c) => {
    const user = await userOf(c);
    const posts = await store().listForAccounts([{ platform: 'threads', accountId: user }], 100);
    return c.json({ data: posts.map((post) => ({ id: post.networkId, text: post.text, timestamp: new Date(post.createdAt).toISOString(), permalink: permalink(post.networkId) })) });
  });

  // The account's own replies, newest first, in Graph cursor pages: a first comment and the later parts of a chain
  // are replies (a container with `reply_to_id`), listed here and not under `/threads`. Short pages may occur.
  routes.get('/:version/:user/replies', async (c) => {
    const user = await userOf(c);
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 25) || 25, 1), 100);
    const listed = await store().pageForAccount('threads', user, limit, c.req.query('after') || null);
    const data = listed.posts
      .filter((post) => post.clientKey !== null)
      .map((post) => ({
        id: post.networkId,
        text: post.text,
        timestamp: graphTime(post.createdAt),
        permalink: permalink(post.networkId),
        is_reply: true,
        replied_to: { id: post.clientKey },
      }));
    return c.json({ data, ...(listed.next && { paging: { cursors: { after: listed.next }, next: `${c.req.url.split('?')[0]}?limit=${limit}&after=${encodeURIComponent(listed.next)}` } }) });
  });

  routes.get('/:version/:id/insights', async (c) => {
    const owner = await graphAccount(deps, c, 'threads');
    const post = await store().findByPlatformId('threads', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
    const asked = requestedMetrics(c, MEDIA_INSIGHTS);
    throwInsightsFault(deps, 'threads', post.accountId);
    return c.json(insightsAnswer(post.networkId, postMetricsOf(deps, 'threads', post), asked, partialCount(deps, 'threads', post.accountId, 2)));
  });

  routes.get('/:version/:user/threads_insights', async (c) => {
    const user = await userOf(c);
    requestedMetrics(c, USER_INSIGHTS);
    throwInsightsFault(deps, 'threads', user);
    const grown = await accountMetricsOf(deps, 'threads', await store().listForAccounts([{ platform: 'threads', accountId: user }], 1000));
    const data = USER_INSIGHTS.slice(partialCount(deps, 'threads', user, 1)).map((name) => ({
      name,
      period: 'day',
      total_value: { value: grown.followersCount ?? 0 },
      title: name,
      id: `${user}/insights/${name}/day`,
    }));
    return c.json({ data });
  });

  routes.get('/:version/:id/conversation', async (c) => {
    const owner = await graphAccount(deps, c, 'threads');
    const post = await store().findByPlatformId('threads', c.req.param('id'));
    if (!post || owner !== post.accountId) throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
    const data = (await commentsOf(deps, post)).map((comment) => ({
      id: comment.id,
      text: comment.text,
      username: comment.author ?? post.accountId.replace(/^sandbox-/, ''),
      timestamp: graphTime(comment.createdAt),
      replied_to: { id: comment.replyTo ?? post.networkId },
    }));
    return c.json({ data });
  });

  routes.get('/p/:id', async (c) => {
    const post = await store().findByPlatformId('threads', c.req.param('id'));
    if (!post) return c.text('No such sandbox threads post.', 404);
    return c.text(`Sandbox threads post ${post.networkId}\n\n${post.text}`);
  });

  routes.put('/accounts/:accountId/geo-gating', async (c) => {
    const body = (await c.req.json().catch(() => null)) as { eligible?: unknown } | null;
    if (typeof body?.eligible !== 'boolean') throw new GraphSandboxError(400, 100, 'Invalid parameter: eligible must be true or false.');
    const ineligible = ineligibleOf(deps.storage);
    if (body.eligible) ineligible.delete(c.req.param('accountId'));
    else ineligible.add(c.req.param('accountId'));
    return c.json({ eligible: body.eligible });
  });

  routes.get('/:version/me', async (c) => {
    // A token of the consent page's authorization server names its account in `sub`.
    const owner = (await graphAccount(deps, c, 'threads')) ?? String(decodeJwt(c.req.header('authorization')!.replace(/^\S+\s+/, '')).sub ?? '');
    return c.json({ id: owner, username: owner, is_eligible_for_geo_gating: !ineligibleOf(deps.storage).has(owner) });
  });

  routes.get('/:version/:id', async (c) => {
    const owner = await graphAccount(deps, c, 'threads');
    const id = c.req.param('id');
    const container = await store().findByPlatformId(CONTAINERS, id);
    if (container && owner === container.accountId) return c.json({ id, status: statusOf(container, deps.clock()) });
    const post = await store().findByPlatformId('threads', id);
    if (post && owner === post.accountId) return c.json({ id, text: post.text, permalink: permalink(id), timestamp: new Date(post.createdAt).toISOString() });
    throw new GraphSandboxError(400, 100, 'Object does not exist.', 33);
  });

  return routes;
}
