/**
 * @module
 * The sandbox YouTube Data API at `/sandbox/youtube`, with the paths of www.googleapis.com:
 * - `POST /upload/youtube/v3/videos?uploadType=resumable&part=snippet,status` with the video resource as JSON and
 *   `X-Upload-Content-Length` → 200 and `Location: <session URI>` (nothing is published yet);
 * - `PUT <session URI>` with the bytes (or the rest of them, `Content-Range: bytes a-b/total`) → 201 with the video
 *   resource when complete, else 308 Resume Incomplete with `Range: bytes=0-n`;
 *   `PUT <session URI>` with `Content-Range: bytes * /total` and no body → the session's state (308 or 201);
 * - `GET /youtube/v3/videos?id=&part=status` → `{items: [...]}`; `DELETE /youtube/v3/videos?id=` → 204 (the token's
 *   channel's videos only: another channel's id is left out of the list, 404 videoNotFound on delete);
 * - `POST /youtube/v3/commentThreads?part=snippet` → the comment thread, under the channel's own video (the sandbox
 *   writes it as the video's channel, so it refuses another channel's video with 404 videoNotFound);
 * - `POST /upload/youtube/v3/watermarks/set?channelId=&uploadType=multipart` (multipart/related: the InvideoBranding
 *   resource, then a PNG or JPEG) → 204; `POST /youtube/v3/watermarks/unset?channelId=` → 204; another channel than
 *   the token's → 403 forbidden; another image type → 400 mediaTypeNotSupported;
 * - `GET /youtube/v3/videoCategories?part=snippet&regionCode=` → youtube's categories with `assignable`; an unknown
 *   region → 400 invalidRegionCode. An upload whose `categoryId` is not assignable → 400 invalidCategoryId.
 * Errors are Google's `{error: {code, message, errors: [{domain, reason, message}]}}`.
 * Faults in the title or description: `[[fault:drop]]` (the first upload request stores half the bytes, then the
 * connection is cut, so the client must resume), 453 (504 on the upload), 454 (503 backendError), 401.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxPost } from './store.js';
import { youtubePrivacyOf } from './engagement-store.js';
import { answerOwnErrors } from './own-errors.js';

const UPLOADS = 'youtube:upload';
/** Videos the sandbox accepts are small test files; the bytes are kept in the upload's record. */
const MAX_VIDEO_BYTES = 50 * 1024 * 1024;
const TITLE_MAX = 100;
const WATERMARKS = 'youtube:watermark';
const WATERMARK_MAX_BYTES = 10 * 1024 * 1024;
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** youtube's video categories (the same list in every region here); only assignable ones can be given to a video. */
export const SANDBOX_VIDEO_CATEGORIES: readonly { id: string; title: string; assignable: boolean }[] = [
  { id: '1', title: 'Film & Animation', assignable: true },
  { id: '2', title: 'Autos & Vehicles', assignable: true },
  { id: '10', title: 'Music', assignable: true },
  { id: '15', title: 'Pets & Animals', assignable: true },
  { id: '17', title: 'Sports', assignable: true },
  { id: '18', title: 'Short Movies', assignable: false },
  { id: '19', title: 'Travel & Events', assignable: true },
  { id: '20', title: 'Gaming', assignable: true },
  { id: '21', title: 'Videoblogging', assignable: false },
  { id: '22', title: 'People & Blogs', assignable: true },
  { id: '23', title: 'Comedy', assignable: true },
  { id: '24', title: 'Entertainment', assignable: true },
  { id: '25', title: 'News & Politics', assignable: true },
  { id: '26', title: 'Howto & Style', assignable: true },
  { id: '27', title: 'Education', assignable: true },
  { id: '28', title: 'Science & Technology', assignable: true },
  { id: '29', title: 'Nonprofits & Activism', assignable: true },
  { id: '30', title: 'Movies', assignable: false },
  { id: '44', title: 'Trailers', assignable: false },
];

/** The parts of a multipart/related body (Google's upload format), each with its Content-Type. */
function relatedParts(body: Buffer, contentType: string): { type: string; bytes: Buffer }[] | null {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!/^multipart\/related/i.test(contentType) || !boundary) return null;
  const parts: { type: string; bytes: Buffer }[] = [];
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) return null;
    const part = body.subarray(start, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) return null;
    const type = /content-type:\s*([^\r\n;]+)/i.exec(part.subarray(0, headerEnd).toString())?.[1]?.trim() ?? '';
    // The part's bytes end before the CRLF that precedes the next delimiter.
    parts.push({ type, bytes: part.subarray(headerEnd + 4, part.length - 2) });
    at = next;
  }
  return parts;
}

const isPngOrJpeg = (bytes: Buffer) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) || bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

/** YouTube Data API's error (the upload and the engagement routes): status, reason and message. */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** YouTube's error body; `domain` names the API part (an expired token is `global` everywhere). */
export function answerYoutubeErrors(routes: Hono<SandboxEnv>, domain: string): void {
  answerOwnErrors(routes, GoogleApiError, (error, c) => {
    const errors = [{ domain: error.status === 401 ? 'global' : domain, reason: error.reason, message: error.message }];
    return c.json({ error: { code: error.status, message: error.message, errors } }, error.status as ContentfulStatusCode);
  });
}

const FAULTS: Record<string, { status: number; reason: string; message: string }> = {
  '453': { status: 504, reason: 'timeout', message: 'The upload timed out.' },
  '454': { status: 503, reason: 'backendError', message: 'Backend Error' },
  '401': { status: 401, reason: 'authError', message: 'Invalid Credentials' },
};

interface UploadRecord {
  resource: { snippet: Record<string, unknown>; status: Record<string, unknown> };
  total: number;
  received: string;
  videoId: string | null;
  fault: string | null;
  dropped: boolean;
}

export function sandboxYoutubeRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);

  answerYoutubeErrors(routes, 'youtube.video');

  async function channelOf(c: Context<SandboxEnv>): Promise<string> {
    const token = bearerOf(c.req.header('authorization'));
    const now = deps.clock();
    const check = await checkSandboxToken(store(), token, 'youtube', 'access', now);
    if (!check.ok) throw new GoogleApiError(401, 'authError', 'Invalid Credentials');
    return check.accountId;
  }

  const resourceOf = (post: SandboxPost) => {
    const record = post.record as unknown as { resource: UploadRecord['resource'] };
    return { kind: 'youtube#video', id: post.networkId, snippet: record.resource.snippet, status: { ...record.resource.status, uploadStatus: 'uploaded' } };
  };

  routes.post('/upload/youtube/v3/videos', async (c) => {
    const channel = await channelOf(c);
    if (c.req.query('uploadType') !== 'resumable') throw new GoogleApiError(400, 'invalidUploadType', 'Only resumable uploads are supported here.');
    const body = (await c.req.json().catch(() => null)) as { snippet?: Record<string, unknown>; status?: Record<string, unknown> } | null;
    if (!body || typeof body !== 'object' || containsNul(body)) throw new GoogleApiError(400, 'parseError', 'Parse Error');
    const title = body.snippet?.title;
    if (typeof title !== 'string' || title.trim() === '') throw new GoogleApiError(400, 'invalidTitle', 'The request metadata specifies an invalid or empty video title.');
    if ([...title].length > TITLE_MAX) throw new GoogleApiError(400, 'invalidTitle', 'The video title is too long.');
    const categoryId = body.snippet?.categoryId;
    if (categoryId !== undefined && !SANDBOX_VIDEO_CATEGORIES.some((category) => category.id === String(categoryId) && category.assignable)) {
      throw new GoogleApiError(400, 'invalidCategoryId', 'The snippet.categoryId property specifies an invalid category ID.');
    }
    const total = Number(c.req.header('x-upload-content-length') ?? NaN);
    if (!Number.isInteger(total) || total <= 0 || total > MAX_VIDEO_BYTES) throw new GoogleApiError(400, 'uploadLimitExceeded', 'X-Upload-Content-Length is missing or too large.');
    const text = `${title}\n${String(body.snippet?.description ?? '')}`;
    const marker = faultMarker(text);
    if (marker === '401') throw new GoogleApiError(401, 'authError', 'Invalid Credentials');
    const sessionId = randomBytes(16).toString('base64url');
    const now = deps.clock();
    const record: UploadRecord = { resource: { snippet: body.snippet ?? {}, status: body.status ?? {} }, total, received: '', videoId: null, fault: marker, dropped: false };
    await store().insertPost({
      platform: UPLOADS,
      accountId: channel,
      networkId: sessionId,
      clientKey: null,
      text,
      media: [],
      record: record as unknown as Record<string, unknown>,
      status: 'processing',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    const location = `${deps.config.publicUrl}/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=${sessionId}`;
    return c.body(null, 200, { Location: location });
  });

  routes.put('/upload/youtube/v3/videos', async (c) => {
    const channel = await channelOf(c);
    const upload = await store().findByPlatformId(UPLOADS, c.req.query('upload_id') ?? '');
    // A session belongs to the channel that opened it: another channel's token finds none.
    if (!upload || upload.accountId !== channel) throw new GoogleApiError(404, 'notFound', 'The upload session does not exist or has expired.');
    const record = upload.record as unknown as UploadRecord;
    const bytes = Buffer.from(await c.req.arrayBuffer());
    let received = Buffer.from(record.received, 'base64');
    const range = c.req.header('content-range') ?? '';
    const complete = () => c.json(resourceOf({ ...upload, networkId: record.videoId! }), 201);
    if (record.videoId) return complete();
    if (/^bytes \*\/\d+$/.test(range) && bytes.length === 0) {
      // A status query: how much arrived.
      return received.length === 0 ? c.body(null, 308) : c.body(null, 308, { Range: `bytes=0-${received.length - 1}` });
    }
    const start = /^bytes (\d+)-\d+\/\d+$/.exec(range)?.[1];
    if ((start ? Number(start) : 0) !== received.length) throw new GoogleApiError(400, 'badContent', 'The Content-Range does not continue the upload.');
    if (record.fault === '453' || record.fault === '454') {
      const fault = FAULTS[record.fault]!;
      throw new GoogleApiError(fault.status, fault.reason, fault.message);
    }
    const now = deps.clock();
    if (record.fault === 'drop' && !record.dropped) {
      // Half the bytes arrive, then the connection is lost: the client has to ask where to resume.
      const half = bytes.subarray(0, Math.floor(bytes.length / 2));
      await store().updatePost(upload.id, { status: 'processing', record: { ...record, received: half.toString('base64'), dropped: true } as unknown as Record<string, unknown>, readyAt: now });
      (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing?.socket?.destroy();
      return c.body(null, 500);
    }
    received = Buffer.concat([received, bytes]);
    if (received.length > record.total) throw new GoogleApiError(400, 'badContent', 'More bytes than X-Upload-Content-Length.');
    if (received.length < record.total) {
      await store().updatePost(upload.id, { status: 'processing', record: { ...record, received: received.toString('base64') } as unknown as Record<string, unknown>, readyAt: now });
      return c.body(null, 308, { Range: `bytes=0-${received.length - 1}` });
    }
    const videoId = randomBytes(8).toString('base64url').slice(0, 11);
    const video = await store().insertPost({
      platform: 'youtube',
      accountId: upload.accountId,
      networkId: videoId,
      clientKey: null,
      text: upload.text,
      media: [{ url: `sandbox-upload:${received.length}`, kind: 'video' }],
      record: { resource: record.resource, bytes: received.length },
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!video) throw new GoogleApiError(503, 'backendError', 'Backend Error');
    await store().updatePost(upload.id, { status: 'published', record: { ...record, received: '', videoId } as unknown as Record<string, unknown>, readyAt: now });
    return c.json(resourceOf(video), 201);
  });

  routes.get('/youtube/v3/videos', async (c) => {
    const channel = await channelOf(c);
    const ids = (c.req.query('id') ?? '').split(',').filter(Boolean);
    const items = [];
    for (const id of ids) {
      const video = await store().findByPlatformId('youtube', id);
      if (video && channel === video.accountId) items.push(resourceOf(video));
    }
    return c.json({ kind: 'youtube#videoListResponse', items });
  });

  routes.delete('/youtube/v3/videos', async (c) => {
    const channel = await channelOf(c);
    const video = await store().findByPlatformId('youtube', c.req.query('id') ?? '');
    if (!video || channel !== video.accountId) throw new GoogleApiError(404, 'videoNotFound', 'The video could not be found.');
    await store().markDeleted(video.id, deps.clock());
    return c.body(null, 204);
  });

  routes.post('/youtube/v3/commentThreads', async (c) => {
    const channel = await channelOf(c);
    const body = (await c.req.json().catch(() => null)) as { snippet?: { videoId?: unknown; topLevelComment?: { snippet?: { textOriginal?: unknown } } } } | null;
    const videoId = body?.snippet?.videoId;
    const text = body?.snippet?.topLevelComment?.snippet?.textOriginal;
    if (typeof videoId !== 'string' || typeof text !== 'string' || text.trim() === '' || containsNul(text)) throw new GoogleApiError(400, 'invalidCommentMetadata', 'The comment is invalid.');
    const video = await store().findByPlatformId('youtube', videoId);
    if (!video || channel !== video.accountId) throw new GoogleApiError(404, 'videoNotFound', 'The video could not be found.');
    const comment = await store().addComment(video.id, text, [], deps.clock());
    return c.json({ kind: 'youtube#commentThread', id: comment.id, snippet: { videoId, topLevelComment: { snippet: { textOriginal: text } } } });
  });

  /** The channel a watermark call names: it must be the token's own (403 forbidden otherwise, as youtube answers). */
  async function brandedChannel(c: Context<SandboxEnv>): Promise<string> {
    const channel = await channelOf(c);
    const named = c.req.query('channelId') ?? '';
    if (named === '' || named !== channel) throw new GoogleApiError(403, 'forbidden', 'The authenticated user cannot manage the branding of this channel.');
    return named;
  }

  routes.post('/upload/youtube/v3/watermarks/set', async (c) => {
    const channel = await brandedChannel(c);
    const body = Buffer.from(await c.req.arrayBuffer());
    const parts = relatedParts(body, c.req.header('content-type') ?? '');
    if (!parts || parts.length !== 2) throw new GoogleApiError(400, 'mediaBodyRequired', 'The request needs the InvideoBranding resource and the image, as multipart/related.');
    const resource = (() => {
      try {
        return JSON.parse(parts[0]!.bytes.toString('utf8')) as { timing?: { type?: unknown; offsetMs?: unknown; durationMs?: unknown }; position?: unknown };
      } catch {
        return null;
      }
    })();
    const timing = resource?.timing;
    if (!timing || !['offsetFromStart', 'offsetFromEnd'].includes(String(timing.type)) || !Number.isInteger(timing.offsetMs) || !Number.isInteger(timing.durationMs)) {
      throw new GoogleApiError(400, 'invalidTiming', 'timing needs type offsetFromStart or offsetFromEnd, offsetMs and durationMs.');
    }
    const image = parts[1]!.bytes;
    if (image.length > WATERMARK_MAX_BYTES) throw new GoogleApiError(400, 'imageTooLarge', 'The watermark image is larger than 10 MB.');
    if (!isPngOrJpeg(image)) throw new GoogleApiError(400, 'mediaTypeNotSupported', 'Watermarks are image/jpeg or image/png.');
    const now = deps.clock();
    const record = { timing, position: resource?.position ?? null, imageType: parts[1]!.type, imageBytes: image.length };
    const existing = await store().findByPlatformId(WATERMARKS, channel);
    if (existing) await store().updatePost(existing.id, { status: 'published', record, readyAt: now });
    else await store().insertPost({ platform: WATERMARKS, accountId: channel, networkId: channel, clientKey: null, text: '', media: [], record, status: 'published', error: null, createdAt: now, readyAt: now });
    return c.body(null, 204);
  });

  routes.post('/youtube/v3/watermarks/unset', async (c) => {
    const channel = await brandedChannel(c);
    const existing = await store().findByPlatformId(WATERMARKS, channel);
    if (existing) await store().updatePost(existing.id, { status: 'deleted', record: existing.record, readyAt: deps.clock() });
    return c.body(null, 204);
  });

  routes.get('/youtube/v3/videoCategories', async (c) => {
    await channelOf(c);
    const region = c.req.query('regionCode') ?? 'US';
    if (!/^[A-Z]{2}$/.test(region) || region === 'ZZ' || REGION_NAMES.of(region) === undefined) throw new GoogleApiError(400, 'invalidRegionCode', 'The regionCode parameter specifies an invalid region code.');
    const items = SANDBOX_VIDEO_CATEGORIES.map((category) => ({
      kind: 'youtube#videoCategory',
      etag: `sandbox-${category.id}`,
      id: category.id,
      snippet: { title: category.title, assignable: category.assignable, channelId: 'UCBR8-60-B28hp2BmDPdntcQ' },
    }));
    return c.json({ kind: 'youtube#videoCategoryListResponse', etag: `sandbox-${region}`, items });
  });

  // The watch page is public like youtube.com's: public and unlisted videos (whoever has the link); a private one
  // is "Video unavailable" to a browser, which carries no channel token here.
  routes.get('/watch', async (c) => {
    const video = await store().findByPlatformId('youtube', c.req.query('v') ?? '');
    if (!video || youtubePrivacyOf(video) === 'private') return c.text('No such sandbox youtube video.', 404);
    return c.text(`Sandbox youtube video ${video.networkId}\n\n${video.text}`);
  });

  return routes;
}
