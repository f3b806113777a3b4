/**
 * @module
 * The threads publishing adapter: containers on graph.threads.net (graph.ts), `account.accountId` being the threads
 * user id. A text over 500 characters becomes a chain of up to 30 posts, each a reply to the one before.
 *
 * prepare: the first post's container — `POST /{threads-user-id}/threads` with `media_type` TEXT, IMAGE, VIDEO or
 * CAROUSEL (2-20 items, each an `is_carousel_item` container first), `text`, and `allowlisted_country_codes` from
 * `threadsOptions.allowCountries` — then `GET /{container-id}?fields=status` until FINISHED (answering `waiting`);
 * not ready after THREADS_WAIT_MAX_MS (the 30 s threads advises) → 522 with retry.
 * commit: `POST /{threads-user-id}/threads_publish {creation_id}`; then each further part of the chain: a TEXT
 * container with `reply_to_id`, waited for up to 30 s, published. When a later part fails, the parts already
 * published stay (the API has no delete) and the failure lists them in `details.posts`, the failing one last.
 * first comment: a reply container under the post; after a crash inside it, `ownComments` reads the account's own
 * replies (`GET /{threads-user-id}/replies`, whose `replied_to` names the post) back to the call's start.
 * reconcile: the first container says PUBLISHED when the interrupted commit went through; the post is then found in
 * `GET /{threads-user-id}/threads` by its text (the rest of an interrupted chain is not continued).
 */
import { measureText } from '../text/text-length.js';
import { splitIntoThread } from '../text/thread-split.js';
import type { CommitResult, PlatformPost, PreparedState, PrepareWaiting, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { classifyGraphError } from '../meta/classify.js';
import { callGraph } from '../meta/graph.js';
import { threadsEngagement } from './engagement.js';
import { failure } from '../kit.js';
import type { NetworkComment } from '../analytics-contract.js';
import { isoOf } from '../meta/comments.js';
import { MAX_RECONCILE_PAGES, unconfirmed } from '../reconcile-by-identity.js';
import { renewLongLivedToken } from '../meta/long-lived-token.js';

export const THREADS_TEXT_MAX = 500;
export const THREADS_PARTS_MAX = 30;
export const THREADS_CAROUSEL_MAX = 20;
/** Spec 7 (522): threads media not ready after up to 30 seconds of waiting. */
export const THREADS_WAIT_MAX_MS = 30_000;
const CHECK_MS = 2_000;

interface ThreadsPrepared extends PreparedState {
  parts: string[];
  children?: string[];
  containerId?: string;
  containerCreatedAt?: number;
}

export interface ThreadsAdapterOptions {
  /** Waits between status checks inside commit (later parts of a chain); tests move the service clock instead. */
  wait(ms: number, ctx: PublishContext): Promise<void>;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
const partsOf = (text: string) => (text.trim() === '' ? [''] : splitIntoThread(text, THREADS_TEXT_MAX, 'chars'));

function validateThreads(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  if (post.text.trim() === '' && post.mediaUrls.length === 0) issues.push(failure(101, 'An empty threads post needs media.'));
  if (measureText(post.text, 'chars') > THREADS_TEXT_MAX) {
    const parts = partsOf(post.text).length;
    if (parts > THREADS_PARTS_MAX) issues.push(failure(275, `The text would need ${parts} threads posts; at most ${THREADS_PARTS_MAX}.`, { details: { parts } }));
  }
  if (post.mediaUrls.length > THREADS_CAROUSEL_MAX) issues.push(failure(164, `threads carousels take at most ${THREADS_CAROUSEL_MAX} items.`));
  return issues;
}

function countries(post: PlatformPost): Record<string, unknown> {
  const allow = post.options.allowCountries;
  return Array.isArray(allow) && allow.length > 0 ? { allowlisted_country_codes: allow.map((code) => String(code).toUpperCase()) } : {};
}

async function createContainer(ctx: PublishContext, fields: Record<string, unknown>): Promise<string | PublishFailure> {
  const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(ctx.account.accountId)}/threads`, fields);
  if (!answer.ok) return classifyGraphError('threads', answer);
  return String(answer.body.id);
}

async function containerStatus(ctx: PublishContext, id: string): Promise<string | PublishFailure> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'status,error_message' });
  if (!answer.ok) return classifyGraphError('threads', answer);
  if (answer.body.status === 'ERROR') return failure(379, `threads could not process the media: ${String(answer.body.error_message ?? '').slice(0, 300)}`);
  return String(answer.body.status);
}

async function publishContainer(ctx: PublishContext, id: string): Promise<{ id: string } | PublishFailure> {
  const answer = await callGraph(ctx, 'POST', `/${encodeURIComponent(ctx.account.accountId)}/threads_publish`, { creation_id: id });
  if (!answer.ok) return classifyGraphError('threads', answer);
  return { id: String(answer.body.id) };
}

async function permalinkOf(ctx: PublishContext, id: string): Promise<string> {
  const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(id)}`, { fields: 'permalink' });
  return answer.ok && typeof answer.body.permalink === 'string' ? answer.body.permalink : 'https://www.threads.net/';
}

const notReady = (): PublishFailure => failure(522, `threads media was not ready after ${THREADS_WAIT_MAX_MS / 1000} seconds of waiting; try again.`, { retryAvailable: true });
const isFailed = (value: unknown): value is PublishFailure => (value as { kind?: unknown })?.kind === 'failed';

export function createThreadsPublishAdapter(options: ThreadsAdapterOptions): PublishAdapter {
  /** Creates a reply container and publishes it once it is ready, waiting up to 30 s. */
  async function publishReply(ctx: PublishContext, text: string, replyTo: string): Promise<{ id: string } | PublishFailure> {
    const container = await createContainer(ctx, { media_type: 'TEXT', text, reply_to_id: replyTo, ...countries(ctx.post) });
    if (isFailed(container)) return container;
    const started = ctx.now();
    for (;;) {
      const status = await containerStatus(ctx, container);
      if (isFailed(status)) return status;
      if (status === 'FINISHED') return publishContainer(ctx, container);
      if (ctx.now() - started >= THREADS_WAIT_MAX_MS) return notReady();
      await options.wait(CHECK_MS, ctx);
    }
  }

  return {
    platform: 'threads',
    // Analytics, comments and replies (engagement.ts).
    ...threadsEngagement,
    // The 60-day token renews itself before it ends (meta/long-lived-token.ts; token-refresher.ts decides when).
    refresh: renewLongLivedToken('th_refresh_token'),

    validate: (post) => validateThreads(post),

    async prepare(ctx, previous): Promise<PreparedState | PublishFailure | PrepareWaiting> {
      const issues = validateThreads(ctx.post);
      if (issues.length > 0) return issues[0]!;
      const now = ctx.now();
      const state: ThreadsPrepared = { parts: partsOf(ctx.post.text), ...(previous as Partial<ThreadsPrepared> | null) };
      const { mediaUrls } = ctx.post;
      const first = state.parts[0]!;
      const video = (url: string) => VIDEO_URL.test(url) || (ctx.post.isVideo && mediaUrls.length === 1);
      if (mediaUrls.length > 1 && !state.children) {
        const children: string[] = [];
        for (const url of mediaUrls) {
          const id = await createContainer(ctx, video(url) ? { media_type: 'VIDEO', video_url: url, is_carousel_item: true } : { media_type: 'IMAGE', image_url: url, is_carousel_item: true });
          if (isFailed(id)) return id;
          children.push(id);
        }
        state.children = children;
        state.containerCreatedAt = now;
      }
      if (state.children && !state.containerId) {
        for (const child of state.children) {
          const status = await containerStatus(ctx, child);
          if (isFailed(status)) return status;
          if (status !== 'FINISHED') return now - state.containerCreatedAt! >= THREADS_WAIT_MAX_MS ? notReady() : { kind: 'waiting', state, checkAfterMs: CHECK_MS };
        }
      }
      if (!state.containerId) {
        const url = mediaUrls[0];
        const fields =
          state.children !== undefined
            ? { media_type: 'CAROUSEL', children: state.children.join(','), text: first }
            : url === undefined
              ? { media_type: 'TEXT', text: first }
              : video(url)
                ? { media_type: 'VIDEO', video_url: url, text: first }
                : { media_type: 'IMAGE', image_url: url, text: first };
        const id = await createContainer(ctx, { ...fields, ...countries(ctx.post) });
        if (isFailed(id)) return id;
        state.containerId = id;
        state.containerCreatedAt = now;
      }
      const status = await containerStatus(ctx, state.containerId);
      if (isFailed(status)) return status;
      if (status === 'FINISHED') return state;
      if (status === 'EXPIRED') return { kind: 'waiting', state: { parts: state.parts }, checkAfterMs: 0 };
      return now - state.containerCreatedAt! >= THREADS_WAIT_MAX_MS ? notReady() : { kind: 'waiting', state, checkAfterMs: CHECK_MS };
    },

    async commit(ctx, preparedState): Promise<CommitResult> {
      const prepared = preparedState as ThreadsPrepared;
      if (!prepared.containerId) return failure(379, 'threads: no container to publish.');
      const head = await publishContainer(ctx, prepared.containerId);
      if (isFailed(head)) return head;
      const posts: { status: string; id?: string; code?: number }[] = [{ status: 'success', id: head.id }];
      let previous = head.id;
      for (const part of prepared.parts.slice(1)) {
        const reply = await publishReply(ctx, part, previous);
        if (isFailed(reply)) {
          // The parts published so far stay on threads (no API delete); the failing part is the last entry.
          posts.push({ status: 'error', code: reply.code });
          return { ...reply, message: `${reply.message} ${posts.length - 1} of ${prepared.parts.length} parts were published and remain.`, details: { ...reply.details, posts } };
        }
        posts.push({ status: 'success', id: reply.id });
        previous = reply.id;
      }
      return { kind: 'done', id: head.id, postUrl: await permalinkOf(ctx, head.id) };
    },

    async confirm() {
      return failure(101, 'Nothing to confirm on threads.');
    },

    async reconcile(ctx, preparedState) {
      const prepared = preparedState as Partial<ThreadsPrepared>;
      if (!prepared.containerId) return null;
      const status = await containerStatus(ctx, prepared.containerId);
      if (status !== 'PUBLISHED') return null;
      const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}/threads`, { fields: 'id,text,timestamp,permalink', limit: 25 });
      if (!answer.ok) throw new Error(`threads reconcile: Graph code ${answer.error.code}`);
      const data = Array.isArray(answer.body.data) ? (answer.body.data as { id?: unknown; text?: unknown; permalink?: unknown }[]) : [];
      const first = prepared.parts?.[0] ?? '';
      const match = data.find((post) => (post.text ?? '') === first && typeof post.id === 'string');
      if (!match) return failure(379, 'threads published this container but the post could not be found; check the account.', { details: { containerId: prepared.containerId } });
      return { kind: 'done', id: String(match.id), postUrl: typeof match.permalink === 'string' ? match.permalink : 'https://www.threads.net/' };
    },

    async ownComments(ctx, networkPostId, since) {
      // The account's replies, newest first, paged back to `since`: only those answering the post itself count.
      const found: NetworkComment[] = [];
      let after: string | undefined;
      for (let page = 0; page < MAX_RECONCILE_PAGES; page++) {
        const answer = await callGraph(ctx, 'GET', `/${encodeURIComponent(ctx.account.accountId)}/replies`, { fields: 'id,text,timestamp,replied_to', limit: 100, after });
        if (!answer.ok) return classifyGraphError('threads', answer);
        const data = Array.isArray(answer.body.data) ? (answer.body.data as { id?: unknown; text?: unknown; timestamp?: unknown; replied_to?: { id?: unknown } }[]) : [];
        let reachedOlder = false;
        for (const reply of data) {
          const created = isoOf(reply.timestamp);
          if (Date.parse(created) < since) reachedOlder = true;
          else if (typeof reply.id === 'string' && reply.replied_to?.id === networkPostId) {
            found.push({ id: reply.id, text: typeof reply.text === 'string' ? reply.text : '', author: ctx.account.accountId, created, replyTo: null });
          }
        }
        const paging = answer.body.paging as { next?: unknown; cursors?: { after?: unknown } } | undefined;
        if (reachedOlder || typeof paging?.next !== 'string' || typeof paging.cursors?.after !== 'string') return found;
        after = paging.cursors.after;
      }
      return unconfirmed('threads', `the account's replies could not be read back to the comment's time within ${MAX_RECONCILE_PAGES} pages`);
    },

    async comment(ctx, networkPostId, text) {
      const reply = await publishReply(ctx, text, networkPostId);
      if (isFailed(reply)) return reply;
      return { kind: 'done', id: reply.id, postUrl: await permalinkOf(ctx, reply.id) };
    },
  };
}

export const threadsPublishAdapter: PublishAdapter = createThreadsPublishAdapter({
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
