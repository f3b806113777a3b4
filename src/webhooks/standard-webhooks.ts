/**
 * @module
 * Standard Webhooks signatures, the one implementation the service signs with and receivers
 * verify with. Web Crypto only, so it runs in Node 20+, browsers and edge runtimes alike.
 *
 * Each delivery carries `webhook-id` (the event id, the same on every retry), `webhook-timestamp` (seconds since the
 * epoch, the time of this attempt) and `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`.
 * The HMAC key is the secret as the spec defines it: a `whsec_<base64>` secret is the bytes after the prefix;
 * any other secret (registrations accept any string) is its UTF-8 bytes. For Standard Webhooks libraries written
 * for base64 secrets, pass such a secret as `whsec_` + base64 of its UTF-8 bytes.
 */

const SECRET_PREFIX = 'whsec_';
const encoder = new TextEncoder();

/** The HMAC key bytes of a registration secret. */
export function webhookSigningKey(secret: string): Uint8Array<ArrayBuffer> {
  if (secret.startsWith(SECRET_PREFIX)) {
    const decoded = decodeBase64(secret.slice(SECRET_PREFIX.length));
    if (decoded && decoded.length > 0) return decoded;
  }
  return encoder.encode(secret);
}

/** `v1,<base64 signature>` of one delivery. */
export async function signStandardWebhook(secret: string, id: string, timestampSeconds: number, body: string): Promise<string> {
  const key = await hmacKey(secret, 'sign');
  const signature = await crypto.subtle.sign('HMAC', key, signedContent(id, String(timestampSeconds), body));
  return `v1,${encodeBase64(new Uint8Array(signature))}`;
}

export type WebhookVerificationFailure = 'missing-headers' | 'bad-timestamp' | 'stale' | 'future' | 'bad-signature';

/** Why a delivery was refused; `reason` tells which check failed. */
export class WebhookVerificationError extends Error {
  readonly reason: WebhookVerificationFailure;
  constructor(reason: WebhookVerificationFailure, message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way; default 300 s (the Standard Webhooks default). */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch; defaults to `Date.now`. */
  now?: () => number;
}

/** Request headers as `fetch` (`Headers`), Node (`IncomingHttpHeaders`) or a plain object gives them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Checks a delivery and returns its parsed JSON body. `body` must be the raw request body exactly as received
 * (`await request.text()`, not a re-serialised object). Throws `WebhookVerificationError` when a header is
 * missing, the timestamp is outside the tolerance (stale or in the future), or no `v1` signature matches.
 */
export async function verifyWebhook<T = unknown>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError('missing-headers', 'webhook-id, webhook-timestamp and webhook-signature are required');
  }
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('bad-timestamp', 'webhook-timestamp is not a number of seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  const sent = Number(timestamp);
  if (sent < nowSeconds - tolerance) throw new WebhookVerificationError('stale', 'webhook-timestamp is too old');
  if (sent > nowSeconds + tolerance) throw new WebhookVerificationError('future', 'webhook-timestamp is in the future');

  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const key = await hmacKey(secret, 'verify');
  const content = signedContent(id, timestamp, text);
  // Several space-separated signatures may be sent (e.g. during a secret rotation); one valid v1 is enough.
  for (const entry of signatures.split(' ')) {
    const [version, value] = entry.split(',', 2);
    const bytes = version === 'v1' && value ? decodeBase64(value) : null;
    // subtle.verify compares in constant time.
    if (bytes && (await crypto.subtle.verify('HMAC', key, bytes, content))) return JSON.parse(text) as T;
  }
  throw new WebhookVerificationError('bad-signature', 'no webhook-signature matches');
}

function header(headers: WebhookHeaders, name: string): string | null {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const found = Object.keys(record).find((key) => key.toLowerCase() === name);
  const value = found === undefined ? undefined : record[found];
  return (Array.isArray(value) ? value.join(' ') : value) ?? null;
}

function hmacKey(secret: string, usage: 'sign' | 'verify') {
  return crypto.subtle.importKey('raw', webhookSigningKey(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [usage]);
}

function signedContent(id: string, timestamp: string, body: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${id}.${timestamp}.${body}`);
}

function encodeBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}
