/**
 * @module
 * The generic sandbox adapter: how the networks without a real publishing adapter yet publish, through the
 * sandbox's generic API at `{base}` = `{PUBLIC_URL}/sandbox/net/{platform}` (every call with the account's access
 * token as a Bearer token). It checks the network's real limits (capabilities.ts) at create time, so a post the
 * sandbox accepts is one the network would accept too.
 *
 * commit = `POST /posts` with `clientKey` = the attempt key; reconcile = `GET /posts?accountId&clientKey`, which finds
 * what an interrupted commit created. tiktok answers `processing` first: commit returns pending, confirm polls.
 */
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { measureText } from './text/text-length.js';
import { splitIntoThread } from './text/thread-split.js';
import { sandboxEngagementMethods } from './sandbox-engagement.js';
import { failure, isFailure } from './kit.js';
import { callSandbox, classifySandboxError, sandboxAuth as bearer } from './sandbox-client.js';
import type { CommitResult, PublishAdapter, PublishDone, PublishFailure, PublishPending } from './publish-adapter.js';

/** Spec 8: a text needing more thread posts than this gives 275. */
export const MAX_THREAD_POSTS = 30;
/** Thread parts are cut shorter than the network's limit, leaving room for numbering (spec: the caller gives 275 over 30). */
export const THREAD_PART_LIMIT = 275;
/** How long after a `processing` answer to look again. */
const CONFIRM_AFTER_MS = 2_000;

interface SandboxPost {
  id: string;
  url: string;
  status?: 'published' | 'processing' | 'failed';
  error?: { code?: number; message?: string };
}

function asResult(post: SandboxPost): PublishDone | PublishPending | PublishFailure {
  if (post.status === 'processing') return { kind: 'pending', state: { id: post.id, url: post.url }, checkAfterMs: CONFIRM_AFTER_MS };
  if (post.status === 'failed') return failure(post.error?.code ?? 500, post.error?.message ?? 'The network could not finish the post.', { retryAvailable: true });
  return { kind: 'done', id: post.id, postUrl: post.url };
}

export function sandboxPublishAdapter(platform: Network): PublishAdapter {
  const capabilities = PUBLISHING_CAPABILITIES[platform];
  return {
    platform,
    // Analytics, comments and replies where the network has them (sandbox-engagement.ts).
    ...sandboxEngagementMethods(platform),

    validate(post) {
      const issues: PublishFailure[] = [];
      const { max, unit } = capabilities.text;
      if (post.text.trim() === '' && !(capabilities.emptyTextAllowed && post.mediaUrls.length > 0)) {
        issues.push(failure(101, capabilities.emptyTextAllowed ? `An empty post on ${platform} needs media.` : `${platform} needs text.`));
      }
      const length = measureText(post.text, unit);
      if (length > max) {
        if (!capabilities.threads) {
          issues.push(failure(101, `The text is ${length} ${unit} long; ${platform} takes at most ${max}.`, { details: { length, max, unit } }));
        } else {
          const parts = splitIntoThread(post.text, Math.min(max, THREAD_PART_LIMIT), unit);
          if (parts.length > MAX_THREAD_POSTS) {
            issues.push(failure(275, `The text would need ${parts.length} thread posts on ${platform}; at most ${MAX_THREAD_POSTS}.`, { details: { parts: parts.length } }));
          }
        }
      }
      if (post.mediaUrls.length > capabilities.media.maxItems) {
        issues.push(failure(164, `${platform} takes at most ${capabilities.media.maxItems} media items.`, { details: { maxItems: capabilities.media.maxItems } }));
      }
      if (post.isVideo && !capabilities.media.videos) issues.push(failure(164, `${platform} does not take videos.`));
      return issues;
    },

    async prepare(_ctx, prepared) {
      // The generic API pulls media from the URLs itself: nothing to upload first.
      return prepared ?? {};
    },

    async commit(ctx): Promise<CommitResult> {
      const response = await ctx.fetch(`${ctx.baseUrl}/posts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await bearer(ctx)) },
        body: JSON.stringify({
          accountId: ctx.account.accountId,
          text: ctx.post.text,
          mediaUrls: ctx.post.mediaUrls,
          clientKey: ctx.post.attemptKey,
          options: ctx.post.options,
        }),
      });
      if (!response.ok) return classifySandboxError(response);
      const created = (await response.json()) as SandboxPost;
      // tiktok processes first; the generic API reports it on the post itself.
      if (platform === 'tiktok') return { kind: 'pending', state: { id: created.id, url: created.url }, checkAfterMs: CONFIRM_AFTER_MS };
      return asResult(created);
    },

    async confirm(ctx, state) {
      const response = await ctx.fetch(`${ctx.baseUrl}/posts/${encodeURIComponent(String(state.id))}`, { headers: await bearer(ctx) });
      if (!response.ok) return classifySandboxError(response);
      return asResult((await response.json()) as SandboxPost);
    },

    async reconcile(ctx) {
      const query = new URLSearchParams({ accountId: ctx.account.accountId, clientKey: ctx.post.attemptKey });
      const response = await ctx.fetch(`${ctx.baseUrl}/posts?${query}`, { headers: await bearer(ctx) });
      if (!response.ok) throw new Error(`reconcile: the network answered HTTP ${response.status}`);
      const { posts } = (await response.json()) as { posts: SandboxPost[] };
      const found = posts[0];
      if (!found) return null;
      const result = asResult(found);
      // A post the network made and then failed still exists: report it done rather than publish again.
      return result.kind === 'failed' ? { kind: 'done', id: found.id, postUrl: found.url } : result;
    },

    async remove(ctx, networkPostId) {
      if (!capabilities.canDelete) return false;
      const response = await ctx.fetch(`${ctx.baseUrl}/posts/${encodeURIComponent(networkPostId)}`, { method: 'DELETE', headers: await bearer(ctx) });
      return response.ok || response.status === 404;
    },

    async comment(ctx, networkPostId, text, mediaUrls) {
      const answer = await callSandbox<{ id: string }>(ctx, `/posts/${encodeURIComponent(networkPostId)}/comments`, { text, mediaUrls });
      return isFailure(answer) ? answer : { kind: 'done', id: answer.id, postUrl: '' };
    },
  };
}
