/**
 * @module
 * bluesky video, as the network takes it: the PDS grants a short service token (`com.atproto.server.getServiceAuth`,
 * audience the PDS's did:web, method `com.atproto.repo.uploadBlob`), the video service receives the MP4
 * (`app.bsky.video.uploadVideo?did&name`), transcodes it and stores the result as a blob in the user's repo;
 * `app.bsky.video.getJobStatus?jobId` says when the blob is ready. The post then embeds it (`app.bsky.embed.video`).
 * The limits (one video alone, size, duration) are read from the capability table, like the rest of the service.
 * For a sandbox account the video service is the sandbox itself (same paths, on loopback).
 */
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { PublishContext, PublishFailure } from '../publish-adapter.js';
import { failWith } from '../fail-with.js';
import { classifyBlueskyError } from './classify.js';
import type { BlueskySessionTokens } from './session.js';
import { xrpc } from './xrpc.js';

/** bluesky's own video service; a sandbox account uses the sandbox's. */
const BLUESKY_VIDEO_SERVICE = 'https://video.bsky.app';
/** How long the service token may live: the upload of a 100 MB file must finish within it. */
const SERVICE_TOKEN_SECONDS = 30 * 60;
/** How often to look at a transcoding job. */
export const VIDEO_POLL_MS = 2_000;

export const BLUESKY_VIDEO_LIMITS = PUBLISHING_CAPABILITIES.bluesky.media;

export interface VideoBlobRef {
  $type: 'blob';
  ref: { $link: string };
  mimeType: string;
  size: number;
}

/** Where the video is: uploaded and transcoding (`jobId`), or ready (`blob`). */
export interface BlueskyVideoState {
  jobId: string;
  blob: VideoBlobRef | null;
}

export type VideoStep = { kind: 'ready'; video: BlueskyVideoState } | { kind: 'processing'; video: BlueskyVideoState } | PublishFailure;

interface JobStatus {
  jobId?: unknown;
  state?: unknown;
  blob?: unknown;
  error?: unknown;
  message?: unknown;
}

const videoServiceOf = (ctx: PublishContext) => (ctx.account.sandbox ? ctx.baseUrl : BLUESKY_VIDEO_SERVICE);
const failure = (code: number, message: string, retryAvailable = false): PublishFailure => ({ kind: 'failed', code, message, retryAvailable, relink: false });

/** The lexicon wraps the status in `jobStatus`; the deployed service has answered it bare too. */
function jobStatusOf(json: Record<string, unknown>): JobStatus {
  const wrapped = json.jobStatus;
  return wrapped && typeof wrapped === 'object' ? (wrapped as JobStatus) : (json as JobStatus);
}

function stepOf(status: JobStatus, jobId: string): VideoStep {
  if (status.state === 'JOB_STATE_FAILED') {
    const reason = typeof status.message === 'string' ? status.message : typeof status.error === 'string' ? status.error : 'processing failed';
    return failWith({ jobId, error: status.error })(182, `bluesky could not process the video: ${reason}`, false);
  }
  const blob = status.blob as VideoBlobRef | undefined;
  if (status.state === 'JOB_STATE_COMPLETED' && blob?.ref?.$link) return { kind: 'ready', video: { jobId, blob } };
  return { kind: 'processing', video: { jobId, blob: null } };
}

/** Downloads the video, refusing more than the network takes before reading it all. */
async function readVideo(ctx: PublishContext, url: string): Promise<Uint8Array | PublishFailure> {
  const max = BLUESKY_VIDEO_LIMITS.videoMaxBytes!;
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The video ${url} could not be read (HTTP ${response.status}).`, response.status >= 500);
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > max) {
      await response.body?.cancel();
      return failure(182, `bluesky takes videos up to ${max} bytes; ${url} has ${declared}.`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > max) return failure(182, `bluesky takes videos up to ${max} bytes; ${url} has ${bytes.byteLength}.`);
    return bytes;
  } catch (error) {
    return failure(164, `The video ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, true);
  }
}

/** Uploads the video to the video service; answers the job, which may already be done (a file it has seen). */
export async function uploadBlueskyVideo(ctx: PublishContext, session: BlueskySessionTokens, url: string): Promise<VideoStep> {
  const bytes = await readVideo(ctx, url);
  if ('kind' in bytes) return bytes;
  const audience = `did:web:${new URL(ctx.baseUrl).hostname}`;
  const grant = await xrpc(ctx, 'com.atproto.server.getServiceAuth', {
    method: 'GET',
    token: session.accessJwt,
    query: { aud: audience, lxm: 'com.atproto.repo.uploadBlob', exp: String(Math.floor(ctx.now() / 1000) + SERVICE_TOKEN_SECONDS) },
  });
  if (grant.status !== 200 || typeof grant.json.token !== 'string') return classifyBlueskyError(grant, ctx.now());
  const service = { fetch: ctx.fetch, baseUrl: videoServiceOf(ctx) };
  const name = `${ctx.post.attemptKey.replace(/[^A-Za-z0-9_-]/g, '_')}.mp4`;
  const answer = await xrpc(service, 'app.bsky.video.uploadVideo', {
    method: 'POST',
    token: grant.json.token,
    query: { did: ctx.account.accountId, name },
    bytes,
    contentType: 'video/mp4',
  });
  const status = jobStatusOf(answer.json);
  // 409: the service already has this file; its answer still names the job.
  if ((answer.status === 200 || answer.status === 409) && typeof status.jobId === 'string') return stepOf(status, status.jobId);
  return classifyBlueskyError(answer, ctx.now());
}

/** One read-only look at the transcoding job. */
export async function blueskyVideoJob(ctx: PublishContext, jobId: string): Promise<VideoStep> {
  const answer = await xrpc({ fetch: ctx.fetch, baseUrl: videoServiceOf(ctx) }, 'app.bsky.video.getJobStatus', { method: 'GET', query: { jobId } });
  if (answer.status !== 200) return classifyBlueskyError(answer, ctx.now());
  return stepOf(jobStatusOf(answer.json), jobId);
}

/** The record's embed for a ready video. */
export const videoEmbed = (blob: VideoBlobRef) => ({ $type: 'app.bsky.embed.video', video: blob });
