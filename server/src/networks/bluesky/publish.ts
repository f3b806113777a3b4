/**
 * @module
 * The bluesky publishing adapter: XRPC against the account's PDS (`ctx.baseUrl`: the sandbox PDS on loopback, or
 * the network's). prepare uploads images with `com.atproto.repo.uploadBlob` and picks the record key; commit is
 * one `com.atproto.repo.createRecord` of an app.bsky.feed.post with that caller-chosen rkey, so the post can exist
 * at most once: a repeated create fails as "already exists" and `reconcile` is a plain `getRecord`.
 * Limits, from the capability table: 300 graphemes (and 3,000 bytes) of text, up to 4 images of at most
 * 1,000,000 bytes, or one video alone (up to 100 MB and 3 minutes; video.ts uploads it to the video service).
 */
import { createHash } from 'node:crypto';
import { hasVideoExtension } from '../../core/video-extension.js';
import { countGraphemes } from '../text/text-length.js';
import type {
  CommitResult,
  LinkedAccountRef,
  PlatformPost,
  PreparedState,
  PrepareWaiting,
  PublishAdapter,
  PublishContext,
  PublishDone,
  PublishFailure,
} from '../publish-adapter.js';
import { classifyBlueskyError } from './classify.js';
import { detectFacets } from './facets.js';
import { freshBlueskySession, refreshBlueskySession, type BlueskySessionTokens } from './session.js';
import { BLUESKY_LIMITS } from './limits.js';
import { xrpc, type XrpcAnswer } from './xrpc.js';
import { blueskyComments } from './comments.js';
import { blueskyVideoJob, uploadBlueskyVideo, VIDEO_POLL_MS, videoEmbed, type BlueskyVideoState } from './video.js';

// The limits are stated once, in limits.ts.
export const BLUESKY_MAX_GRAPHEMES = BLUESKY_LIMITS.graphemes;
export const BLUESKY_MAX_TEXT_BYTES = BLUESKY_LIMITS.textBytes;
export const BLUESKY_MAX_IMAGES = BLUESKY_LIMITS.images;
export const BLUESKY_MAX_IMAGE_BYTES = BLUESKY_LIMITS.imageBytes;
const COLLECTION = 'app.bsky.feed.post';
const TID_ALPHABET = '234567abcdefghijklmnopqrstuvwxyz';

interface BlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

interface BlueskyPrepared extends PreparedState {
  rkey: string;
  createdAt: string;
  images: BlobRef[];
  /** Set for a video post: the transcoding job and, once done, its blob. */
  video?: BlueskyVideoState;
}

const failure = (code: number, message: string, retryAvailable = false): PublishFailure => ({ kind: 'failed', code, message, retryAvailable, relink: false });
const isFailure = (value: unknown): value is PublishFailure => typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'failed';

/**
 * A TID record key for the attempt: the time of the first prepare in microseconds, with the clock-id bits and the
 * sub-millisecond digits taken from the attempt key, so two attempts prepared in the same millisecond differ.
 */
export function recordKeyFor(attemptKey: string, nowMs: number): string {
  const hash = createHash('sha256').update(attemptKey).digest();
  const micros = BigInt(nowMs) * 1000n + BigInt(hash.readUInt16BE(0) % 1000);
  let value = (micros << 10n) | BigInt(hash.readUInt16BE(2) & 0x3ff);
  let out = '';
  for (let i = 0; i < 13; i++) {
    out = TID_ALPHABET[Number(value & 31n)] + out;
    value >>= 5n;
  }
  return out;
}

function postUrlOf(ctx: PublishContext, rkey: string): string {
  const { accountId, username, sandbox } = ctx.account;
  if (sandbox) return `${ctx.baseUrl.replace(/\/+$/, '')}/profile/${encodeURIComponent(accountId)}/post/${rkey}`;
  return `https://bsky.app/profile/${encodeURIComponent(username ?? accountId)}/post/${rkey}`;
}

function readPrepared(prepared: PreparedState | null): BlueskyPrepared | null {
  if (!prepared || typeof prepared.rkey !== 'string' || typeof prepared.createdAt !== 'string' || !Array.isArray(prepared.images)) return null;
  return prepared as BlueskyPrepared;
}

/** An authenticated call; an expired access token is refreshed once and the call repeated (nothing was written). */
async function authed(ctx: PublishContext, session: BlueskySessionTokens, call: (token: string) => Promise<XrpcAnswer>): Promise<XrpcAnswer | PublishFailure> {
  const answer = await call(session.accessJwt);
  if (answer.error !== 'ExpiredToken') return answer;
  const renewed = await refreshBlueskySession(ctx, session);
  if (isFailure(renewed)) return renewed;
  return call(renewed.accessJwt);
}

async function getRecord(ctx: PublishContext, rkey: string): Promise<XrpcAnswer> {
  return xrpc(ctx, 'com.atproto.repo.getRecord', { method: 'GET', query: { repo: ctx.account.accountId, collection: COLLECTION, rkey } });
}

function done(ctx: PublishContext, answer: XrpcAnswer, rkey: string): PublishDone {
  const uri = typeof answer.json.uri === 'string' ? answer.json.uri : `at://${ctx.account.accountId}/${COLLECTION}/${rkey}`;
  return { kind: 'done', id: uri, postUrl: postUrlOf(ctx, rkey) };
}

/** A video post: declared (`isVideo`) or a URL with a video extension. */
function isVideoPost(post: PlatformPost): boolean {
  return post.isVideo || post.mediaUrls.some((url) => URL.canParse(url) && hasVideoExtension(new URL(url)));
}

function validateBluesky(post: PlatformPost, _account: LinkedAccountRef): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const graphemes = countGraphemes(post.text);
  if (graphemes > BLUESKY_MAX_GRAPHEMES) issues.push(failure(101, `bluesky posts are at most ${BLUESKY_MAX_GRAPHEMES} characters; this one has ${graphemes}.`));
  if (Buffer.byteLength(post.text, 'utf8') > BLUESKY_MAX_TEXT_BYTES) issues.push(failure(101, `bluesky posts are at most ${BLUESKY_MAX_TEXT_BYTES} bytes of text.`));
  if (post.text.trim() === '') issues.push(failure(101, 'bluesky posts need text.'));
  if (isVideoPost(post) && post.mediaUrls.length > 1) issues.push(failure(164, 'A bluesky video post carries one video and no other media.'));
  else if (post.mediaUrls.length > BLUESKY_MAX_IMAGES) issues.push(failure(101, `bluesky takes at most ${BLUESKY_MAX_IMAGES} images.`));
  return issues;
}

async function uploadImage(ctx: PublishContext, session: BlueskySessionTokens, url: string): Promise<BlobRef | PublishFailure> {
  let bytes: Uint8Array;
  let contentType: string;
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The image ${url} could not be read (HTTP ${response.status}).`, response.status >= 500);
    contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    bytes = new Uint8Array(await response.arrayBuffer());
  } catch (error) {
    return failure(164, `The image ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, true);
  }
  if (!contentType.startsWith('image/')) return failure(164, `${url} is not an image (${contentType || 'no content type'}).`);
  if (bytes.byteLength > BLUESKY_MAX_IMAGE_BYTES) return failure(164, `bluesky images are at most ${BLUESKY_MAX_IMAGE_BYTES} bytes; ${url} has ${bytes.byteLength}.`);
  const answer = await authed(ctx, session, (token) => xrpc(ctx, 'com.atproto.repo.uploadBlob', { method: 'POST', bytes, contentType, token }));
  if (isFailure(answer)) return answer;
  const blob = answer.json.blob as BlobRef | undefined;
  if (answer.status !== 200 || !blob?.ref?.$link) return classifyBlueskyError(answer, ctx.now());
  return blob;
}

/** The record key and creation time, chosen at the first prepare and never changed. */
function recordIdentity(ctx: PublishContext, earlier: BlueskyPrepared | null): Pick<BlueskyPrepared, 'rkey' | 'createdAt'> {
  const now = ctx.now();
  return { rkey: earlier?.rkey ?? recordKeyFor(ctx.post.attemptKey, now), createdAt: earlier?.createdAt ?? new Date(now).toISOString() };
}

/** Uploads the video once, then looks at its job until the blob is ready (the engine waits between looks). */
async function prepareVideo(ctx: PublishContext, earlier: BlueskyPrepared | null): Promise<PreparedState | PublishFailure | PrepareWaiting> {
  if (earlier?.video?.blob) return earlier;
  let step;
  if (earlier?.video) step = await blueskyVideoJob(ctx, earlier.video.jobId);
  else {
    const session = await freshBlueskySession(ctx);
    if (isFailure(session)) return session;
    step = await uploadBlueskyVideo(ctx, session, ctx.post.mediaUrls[0]!);
  }
  if (isFailure(step)) return step;
  const state: BlueskyPrepared = { ...recordIdentity(ctx, earlier), images: [], video: step.video };
  return step.kind === 'ready' ? state : { kind: 'waiting', state, checkAfterMs: VIDEO_POLL_MS };
}

export const blueskyPublishAdapter: PublishAdapter = {
  platform: 'bluesky',
  // Replies under a post, as comments (comments.ts).
  comments: blueskyComments,

  validate: validateBluesky,

  async prepare(ctx, previous) {
    const earlier = readPrepared(previous);
    if (isVideoPost(ctx.post)) return prepareVideo(ctx, earlier);
    // Uploading again is harmless (a blob is addressed by its hash), but the record key must never change.
    if (earlier && earlier.images.length === ctx.post.mediaUrls.length) return earlier;
    const session = await freshBlueskySession(ctx);
    if (isFailure(session)) return session;
    const images: BlobRef[] = [];
    for (const url of ctx.post.mediaUrls) {
      const blob = await uploadImage(ctx, session, url);
      if (isFailure(blob)) return blob;
      images.push(blob);
    }
    return { ...recordIdentity(ctx, earlier), images } satisfies BlueskyPrepared;
  },

  async commit(ctx, preparedState): Promise<CommitResult> {
    const prepared = readPrepared(preparedState);
    if (!prepared) return failure(101, 'The bluesky attempt was not prepared.');
    const session = await freshBlueskySession(ctx);
    if (isFailure(session)) return session;
    const facets = detectFacets(ctx.post.text);
    const record = {
      $type: COLLECTION,
      text: ctx.post.text,
      createdAt: prepared.createdAt,
      ...(facets.length > 0 && { facets }),
      ...(prepared.images.length > 0 && { embed: { $type: 'app.bsky.embed.images', images: prepared.images.map((image) => ({ image, alt: '' })) } }),
      ...(prepared.video?.blob && { embed: videoEmbed(prepared.video.blob) }),
    };
    const answer = await authed(ctx, session, (token) =>
      xrpc(ctx, 'com.atproto.repo.createRecord', {
        method: 'POST',
        token,
        json: { repo: ctx.account.accountId, collection: COLLECTION, rkey: prepared.rkey, validate: true, record },
      }),
    );
    if (isFailure(answer)) return answer;
    if (answer.status === 200) return done(ctx, answer, prepared.rkey);
    // No answer, or "already exists": the record key tells whether this post is on the PDS.
    if (answer.status === 0 || /already exists/i.test(answer.message)) {
      const found = await blueskyPublishAdapter.reconcile(ctx, prepared);
      if (found && found.kind === 'done') return found;
    }
    return classifyBlueskyError(answer, ctx.now());
  },

  async confirm(ctx, state) {
    const rkey = typeof state.rkey === 'string' ? state.rkey : null;
    if (!rkey) return failure(101, 'Nothing to confirm.');
    const answer = await getRecord(ctx, rkey);
    if (answer.status === 200) return done(ctx, answer, rkey);
    return answer.error === 'RecordNotFound' ? failure(186, 'The post is not on bluesky.') : classifyBlueskyError(answer, ctx.now());
  },

  async reconcile(ctx, preparedState) {
    const prepared = readPrepared(preparedState);
    if (!prepared) return null;
    const answer = await getRecord(ctx, prepared.rkey);
    if (answer.status === 200) return done(ctx, answer, prepared.rkey);
    if (answer.error === 'RecordNotFound') return null;
    // The PDS did not say: whether the commit happened is unknown, and a second commit would only meet the same rkey.
    return { ...classifyBlueskyError(answer, ctx.now()), retryAvailable: true };
  },

  async remove(ctx, networkPostId) {
    const rkey = networkPostId.split('/').pop() ?? '';
    const session = await freshBlueskySession(ctx);
    if (isFailure(session)) return false;
    const answer = await authed(ctx, session, (token) =>
      xrpc(ctx, 'com.atproto.repo.deleteRecord', { method: 'POST', token, json: { repo: ctx.account.accountId, collection: COLLECTION, rkey } }),
    );
    return !isFailure(answer) && answer.status === 200;
  },

  async comment(ctx, networkPostId, text) {
    const rkey = networkPostId.split('/').pop() ?? '';
    const session = await freshBlueskySession(ctx);
    if (isFailure(session)) return session;
    const parent = await getRecord(ctx, rkey);
    if (parent.status !== 200 || typeof parent.json.uri !== 'string' || typeof parent.json.cid !== 'string') {
      return parent.error === 'RecordNotFound' ? failure(186, 'The post to comment on is not on bluesky.') : classifyBlueskyError(parent, ctx.now());
    }
    const parentRef = { uri: parent.json.uri, cid: parent.json.cid };
    const root = ((parent.json.value as { reply?: { root?: { uri: string; cid: string } } } | undefined)?.reply?.root) ?? parentRef;
    // The reply's record key is fixed by the post (its attempt key and the parent's creation time), not by the time of
    // the call, as the post's own key is fixed at prepare: a repeated comment call meets the record an earlier one made
    // (the PDS refuses an existing key) instead of making a second reply.
    const parentCreated = Date.parse(String((parent.json.value as { createdAt?: unknown } | undefined)?.createdAt ?? ''));
    const replyKey = recordKeyFor(`${ctx.post.attemptKey}:comment`, Number.isFinite(parentCreated) ? parentCreated : ctx.now());
    const facets = detectFacets(text);
    const answer = await authed(ctx, session, (token) =>
      xrpc(ctx, 'com.atproto.repo.createRecord', {
        method: 'POST',
        token,
        json: {
          repo: ctx.account.accountId,
          collection: COLLECTION,
          rkey: replyKey,
          record: { $type: COLLECTION, text, createdAt: new Date(ctx.now()).toISOString(), reply: { root, parent: parentRef }, ...(facets.length > 0 && { facets }) },
        },
      }),
    );
    if (isFailure(answer)) return answer;
    if (answer.status === 200) return done(ctx, answer, replyKey);
    // No answer, or "already exists": the record key tells whether this reply is on the PDS.
    if (answer.status === 0 || /already exists/i.test(answer.message)) {
      const existing = await getRecord(ctx, replyKey);
      if (existing.status === 200) return done(ctx, existing, replyKey);
    }
    return classifyBlueskyError(answer, ctx.now());
  },
};
