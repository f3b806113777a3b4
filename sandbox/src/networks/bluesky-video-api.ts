/**
 * @module
 * The sandbox bluesky video service and the PDS call it needs, under `/sandbox/xrpc/`, on the real paths:
 * - `com.atproto.server.getServiceAuth?aud&lxm&exp` (PDS, Bearer access token) → `{token}`: a short JWT-shaped token
 *   for one method (`lxm`) and one audience, at most an hour.
 * - `app.bsky.video.uploadVideo?did&name` (Bearer service token for `com.atproto.repo.uploadBlob`, audience the
 *   PDS's `did:web:<host>`, MP4 body) → `{jobStatus}`. Over the size limit → 400; a file whose duration cannot be
 *   read or is over the limit gives a job that fails, as the real service's transcoder does.
 * - `app.bsky.video.getJobStatus?jobId` (no auth) → `{jobStatus: {jobId, did, state, progress, blob?, error?}}`:
 *   `JOB_STATE_ENCODING` for the first few seconds of the service clock, then `JOB_STATE_COMPLETED` with the blob,
 *   which the service stored in the user's repo (so a post can embed it with `app.bsky.embed.video`).
 * Limits come from the capability table, the same the service's adapter reads. A job id is the job's own record
 * (encoded, not secret): the sandbox needs no job table.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { findMoov, readMoovDuration } from '@social-link-kit/server/sandbox-kit.js';
import { Hono, type Context } from 'hono';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { rawCid } from './atproto-ids.js';
import { bearerOf, checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';

/** How long the sandbox "transcodes" a video, on the service clock. */
export const SANDBOX_VIDEO_PROCESSING_MS = 3_000;
const SERVICE_TOKEN_PLATFORM = 'bluesky-service';
const MAX_SERVICE_TOKEN_MS = 60 * 60_000;
const LIMITS = PUBLISHING_CAPABILITIES.bluesky.media;

interface Job {
  did: string;
  cid: string;
  size: number;
  at: number;
  error?: string;
}

const encodeJob = (job: Job) => Buffer.from(JSON.stringify(job)).toString('base64url');

function decodeJob(jobId: string): Job | null {
  try {
    const job = JSON.parse(Buffer.from(jobId, 'base64url').toString('utf8')) as Job;
    return typeof job.did === 'string' && typeof job.cid === 'string' && typeof job.at === 'number' ? job : null;
  } catch {
    return null;
  }
}

/** Why the transcoder would refuse the file, or null. */
function videoProblem(bytes: Uint8Array): string | null {
  const walk = findMoov(bytes, 0);
  if (walk.found !== 'moov') return 'Video could not be decoded';
  const duration = readMoovDuration(bytes.subarray(walk.offset, walk.offset + walk.size));
  if (!duration.ok) return 'Video could not be decoded';
  if (duration.seconds > LIMITS.videoSeconds.max) return `Video is too long: ${Math.round(duration.seconds)} s, the maximum is ${LIMITS.videoSeconds.max} s`;
  return null;
}

export function sandboxBlueskyVideoRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const xrpcError = (c: Context<SandboxEnv>, status: 400 | 401, error: string, message: string) => c.json({ error, message }, status);

  routes.get('/xrpc/com.atproto.server.getServiceAuth', async (c) => {
    const now = deps.clock();
    const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), 'bluesky', 'access', now);
    if (!check.ok) return check.reason === 'expired' ? xrpcError(c, 400, 'ExpiredToken', 'Token has expired') : xrpcError(c, 401, 'AuthenticationRequired', 'Authentication Required');
    const aud = c.req.query('aud') ?? '';
    const lxm = c.req.query('lxm') ?? '';
    if (!aud.startsWith('did:') || lxm === '' || aud.length > 300 || lxm.length > 300) return xrpcError(c, 400, 'InvalidRequest', 'aud must be a DID and lxm a method');
    const exp = c.req.query('exp') === undefined ? now / 1000 + 60 : Number(c.req.query('exp'));
    const ttlMs = exp * 1000 - now;
    if (!Number.isFinite(ttlMs) || ttlMs <= 0 || ttlMs > MAX_SERVICE_TOKEN_MS) return xrpcError(c, 400, 'BadExpiration', 'exp must be in the future and at most an hour away');
    const token = await issueSandboxToken(
      store(),
      { platform: SERVICE_TOKEN_PLATFORM, accountId: check.accountId, kind: 'access', handle: `${aud} ${lxm}`, ttlMs, jwtShaped: true },
      now,
    );
    return c.json({ token });
  });

  routes.post('/xrpc/app.bsky.video.uploadVideo', async (c) => {
    const now = deps.clock();
    const check = await checkSandboxToken(store(), bearerOf(c.req.header('authorization')), SERVICE_TOKEN_PLATFORM, 'access', now);
    if (!check.ok) return xrpcError(c, 401, 'AuthenticationRequired', 'A service token from com.atproto.server.getServiceAuth is required');
    const audience = `did:web:${new URL(c.req.url).hostname}`;
    if (check.handle !== `${audience} com.atproto.repo.uploadBlob`) return xrpcError(c, 401, 'InvalidToken', `The service token must be for ${audience} and com.atproto.repo.uploadBlob`);
    if (c.req.query('did') !== check.accountId) return xrpcError(c, 400, 'InvalidRequest', 'did must be the token’s account');
    const declared = Number(c.req.header('content-length'));
    const tooLarge = () => xrpcError(c, 400, 'InvalidRequest', `Video is too large: the maximum is ${LIMITS.videoMaxBytes} bytes`);
    if (Number.isFinite(declared) && declared > LIMITS.videoMaxBytes!) return tooLarge();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.byteLength > LIMITS.videoMaxBytes!) return tooLarge();
    if (bytes.byteLength === 0) return xrpcError(c, 400, 'InvalidRequest', 'Empty video');
    const cid = rawCid(bytes);
    const problem = videoProblem(bytes);
    // The transcoded file becomes a blob of the user's repo; a refused one never does.
    if (!problem) await store().putBlob(check.accountId, cid, 'video/mp4', bytes, now);
    const jobId = encodeJob({ did: check.accountId, cid, size: bytes.byteLength, at: now, ...(problem && { error: problem }) });
    return c.json({ jobStatus: { jobId, did: check.accountId, state: 'JOB_STATE_CREATED', progress: 0 } });
  });

  routes.get('/xrpc/app.bsky.video.getJobStatus', async (c) => {
    const jobId = c.req.query('jobId') ?? '';
    const job = jobId.length <= 2000 ? decodeJob(jobId) : null;
    if (!job) return xrpcError(c, 400, 'InvalidRequest', 'Job not found');
    const base = { jobId, did: job.did };
    const elapsed = deps.clock() - job.at;
    if (elapsed < SANDBOX_VIDEO_PROCESSING_MS) {
      return c.json({ jobStatus: { ...base, state: 'JOB_STATE_ENCODING', progress: Math.floor((100 * Math.max(0, elapsed)) / SANDBOX_VIDEO_PROCESSING_MS) } });
    }
    if (job.error) return c.json({ jobStatus: { ...base, state: 'JOB_STATE_FAILED', error: 'InvalidVideo', message: job.error } });
    if (!(await store().findBlob(job.did, job.cid))) return xrpcError(c, 400, 'InvalidRequest', 'Job not found');
    const blob = { $type: 'blob', ref: { $link: job.cid }, mimeType: 'video/mp4', size: job.size };
    return c.json({ jobStatus: { ...base, state: 'JOB_STATE_COMPLETED', progress: 100, blob } });
  });

  return routes;
}
