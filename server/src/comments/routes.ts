/**
 * @module
 * Comments of published posts (spec 4.8 "Get Comments"), with the API key (and `Profile-Key`):
 * - `GET /api/comments/:id`: the comments of a service post on each network it was published on that lists
 *   comments; `?searchPlatformId=true&platform=x` reads `:id` as that network's post id instead.
 * - `POST /api/comments/:id/reply` `{commentId, platforms: [one network], comment}`: reply where the network allows.
 * Comments: `{commentId, comment, author, created, replyTo, platform}`; a network that fails is listed in `errors`.
 */
import { Hono, type Context } from 'hono';
import { httpStatusOf, isNetwork, type Network } from '@social-link-kit/protocol';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { CommentReplyRequest } from '@social-link-kit/protocol/analytics/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import type { Analytics } from '../analytics/analytics.js';
import { networkContextFor } from '../analytics/network-context.js';
import type { Publishing } from '../publishing/publishing.js';
import { notFound } from '../publishing/post-answer.js';
import { requestError } from '../publishing/request-errors.js';
import { appCredentialsFor } from '../networks/app-credentials.js';
import { describe, NOT_FOUND } from '../core/openapi/describe.js';
import { z } from 'zod';
import { CommentReplyResponse, CommentsResponse } from '@social-link-kit/protocol/analytics/index.js';

const ACTION = 'comments';
/** Spec 5.6: comments on a network that signs with the integrator's own app need it in the headers (419 otherwise). */
const appOf = (c: Context<AppEnv>, platform: Network) => appCredentialsFor(platform, (name) => c.req.header(name), ACTION);

export function commentRoutes(deps: Pick<AppDeps, 'config'>, publishing: Publishing, analytics: Analytics): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const { adapters, contextDeps } = analytics;

  /** The (network, network post id) pairs `:id` names for this profile. */
  async function targets(profileId: string, id: string, searchPlatformId: boolean, platform: string | undefined): Promise<{ platform: Network; networkPostId: string }[]> {
    if (searchPlatformId) {
      if (!platform || !isNetwork(platform)) throw new ApiError(400, 163, 'Searching by network post id needs one network in `platform`.', { action: ACTION });
      return [{ platform, networkPostId: id }];
    }
    const post = await publishing.store.findPostOfProfile(profileId, id);
    if (!post) throw notFound(id);
    const rows = await publishing.store.listPlatforms(post.id);
    return rows
      .filter((row) => row.status === 'success' && row.networkPostId && (!platform || row.platform === platform))
      .map((row) => ({ platform: row.platform, networkPostId: row.networkPostId! }));
  }

  routes.get('/:id', describe({ summary: 'The comments of a service post, per network', tag: 'Comments', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer fields', query: z.object({ searchPlatformId: z.enum(['true', 'false']).optional(), platform: z.string().optional() }), response: CommentsResponse, name: 'CommentsResponse', errors: [163, 186, NOT_FOUND] }), async (c) => {
    const id = c.req.param('id');
    if (id.length > 200) throw badRequest('The id is too long.', undefined, ACTION);
    const searchPlatformId = c.req.query('searchPlatformId') === 'true';
    const profile = c.get('profile');
    const answer: Record<string, unknown> = {};
    const errors: { platform: Network; code: number; message: string }[] = [];
    for (const target of await targets(profile.id, id, searchPlatformId, c.req.query('platform'))) {
      const adapter = adapters[target.platform];
      if (!adapter.comments) continue;
      const ctx = await networkContextFor(contextDeps, profile.id, target.platform, appOf(c, target.platform));
      if (!ctx) {
        errors.push({ platform: target.platform, code: 163, message: `No ${target.platform} account is linked to this profile.` });
        continue;
      }
      const listed = await adapter.comments(ctx, target.networkPostId);
      if (!Array.isArray(listed)) {
        if (searchPlatformId && listed.code === 186) throw new ApiError(404, 186, `No ${target.platform} post ${id.slice(0, 64)} was found for this account.`, { action: ACTION });
        errors.push({ platform: target.platform, code: listed.code, message: listed.message });
        continue;
      }
      answer[target.platform] = listed.map((comment) => ({
        commentId: comment.id,
        comment: comment.text,
        author: comment.author,
        created: comment.created,
        replyTo: comment.replyTo,
        platform: target.platform,
      }));
    }
    return c.json({ status: errors.length > 0 ? 'error' : 'success', id, ...answer, ...(errors.length > 0 && { errors }) });
  });

  routes.post('/:id/reply', describe({ summary: 'Reply to a comment on one network', tag: 'Comments', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', query: z.object({ searchPlatformId: z.enum(['true', 'false']).optional() }), request: CommentReplyRequest, response: CommentReplyResponse, name: 'CommentReplyResponse', errors: [163, NOT_FOUND] }), async (c) => {
    const parsed = CommentReplyRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const { commentId, comment } = parsed.data;
    const platform = parsed.data.platforms[0]!;
    if (!isNetwork(platform)) throw new ApiError(400, 163, `Unknown network ${platform.slice(0, 40)}.`, { action: ACTION });
    const profile = c.get('profile');
    const [target] = await targets(profile.id, c.req.param('id'), c.req.query('searchPlatformId') === 'true', platform);
    if (!target) throw badRequest(`This post was not published on ${platform}.`, undefined, ACTION);
    const adapter = adapters[platform];
    if (!adapter.reply) throw badRequest(`${platform} does not allow replying to comments through its API.`, undefined, ACTION);
    const ctx = await networkContextFor(contextDeps, profile.id, platform, appOf(c, platform));
    if (!ctx) throw new ApiError(400, 163, `No ${platform} account is linked to this profile.`, { action: ACTION });
    const result = await adapter.reply(ctx, target.networkPostId, commentId, comment);
    if (result.kind === 'failed') {
      const status = httpStatusOf(result.code, result.retryAvailable ? 502 : 400) as ContentfulStatusCode;
      throw new ApiError(status, result.code, result.message, { action: ACTION, retryAvailable: result.retryAvailable });
    }
    return c.json({ status: 'success', commentId, id: result.id, platform });
  });

  return routes;
}
