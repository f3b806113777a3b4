/**
 * @module
 * Webhook signing: `X-Signature: sha256=<hex HMAC-SHA256 of the raw request body, keyed with the secret>`.
 * Sent only when the registration has a secret. The body carries the event `id` and `created` time, so both
 * are covered by the signature. Receivers should compare in constant time (`verifyWebhookSignature`).
 * The Standard Webhooks signature (`webhook-signature`) also covers the attempt's timestamp, so a captured
 * delivery cannot be replayed later: prefer it (`verifyWebhook` from `social-link-kit/webhooks.js`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The Standard Webhooks headers, sent beside ours; the signing is the npm package's own. */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';
export { signStandardWebhook } from '../../../src/webhooks/standard-webhooks.js';

export const SIGNATURE_HEADER = 'X-Signature';

export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** `X-Authorization-Content-SHA256`: hex HMAC-SHA256 of the raw body, keyed with the secret (the header receivers
 * written for the public API the spec comes from check, beside `X-Authorization-Timestamp`). */
export const CONTENT_HMAC_HEADER = 'X-Authorization-Content-SHA256';
export const AUTHORIZATION_TIMESTAMP_HEADER = 'X-Authorization-Timestamp';

export function contentHmac(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function verifyWebhookSignature(secret: string, body: string, header: string | undefined | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const received = Buffer.from(header);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
