/**
 * @module
 * reddit's native image upload: `POST /api/media/asset.json {filepath, mimetype}` answers an upload lease
 * (`args.action`, a protocol-relative bucket address, and `args.fields`, the signed form fields); the image is then
 * POSTed there as multipart/form-data (the fields first, the file last), and the submit names it with
 * `kind=image` and `url=<action>/<key>`. Only JPEG, PNG and GIF images go this way; anything else (or a host that
 * cannot be read) stays a link post to the media. Uploading publishes nothing, so prepare may run it again.
 */
import type { PublishContext, PublishFailure } from '../publish-adapter.js';
import { sniffMediaType } from '../../core/sniff-media-type.js';
import { classifyRedditError } from './classify.js';
import { callReddit, REDDIT_USER_AGENT } from './reddit-api.js';

const LEASE_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif' };
/** reddit's image posts take files up to 20 MB. */
export const REDDIT_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

interface Lease {
  action: string;
  fields: { name: string; value: string }[];
}

/** The uploaded image's address for `/api/submit` (kind=image); null when the media is not an image reddit takes. */
export async function uploadRedditImage(ctx: PublishContext, token: string, mediaUrl: string): Promise<{ url: string } | PublishFailure | null> {
  const media = await ctx.fetch(mediaUrl).catch(() => null);
  if (!media?.ok) {
    await media?.body?.cancel();
    return null;
  }
  const bytes = new Uint8Array(await media.arrayBuffer());
  const type = sniffMediaType(bytes.subarray(0, 64))?.type;
  if (!type || !(type in LEASE_TYPES) || bytes.length > REDDIT_IMAGE_MAX_BYTES) return null;
  const answer = await callReddit(ctx, token, 'POST', '/api/media/asset.json', { filepath: `image.${LEASE_TYPES[type]}`, mimetype: type });
  const lease = answer.json.args as Partial<Lease> | undefined;
  if (answer.status !== 200 || typeof lease?.action !== 'string' || !Array.isArray(lease.fields)) return classifyRedditError(answer);
  // The action has no scheme ("//bucket…"): it takes the API's (https for reddit).
  const action = new URL(lease.action, ctx.baseUrl).href.replace(/\/+$/, '');
  const form = new FormData();
  for (const field of lease.fields) form.append(String(field.name), String(field.value));
  form.append('file', new Blob([bytes], { type }), `image.${LEASE_TYPES[type]}`);
  const upload = await ctx.fetch(action, { method: 'POST', headers: { 'User-Agent': REDDIT_USER_AGENT }, body: form }).catch(() => null);
  await upload?.body?.cancel();
  if (!upload || (upload.status !== 201 && upload.status !== 204 && upload.status !== 200)) {
    return { kind: 'failed', code: 164, message: 'reddit did not take the image upload; try again.', retryAvailable: true, relink: false, details: { httpStatus: upload?.status ?? 0 } };
  }
  const key = lease.fields.find((field) => field.name === 'key')?.value;
  if (!key) return { kind: 'failed', code: 164, message: 'reddit gave an upload lease without a key.', retryAvailable: true, relink: false };
  return { url: `${action}/${key}` };
}
