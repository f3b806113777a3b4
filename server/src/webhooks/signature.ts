/**
 * @module
 * Webhook signing: `X-Signature: sha256=<hex HMAC-SHA256 of the raw request body, keyed with the secret>`.
 * Sent only when the registration has a secret. The body carries the event `id` and `created` time, so both
 * are covered by the signature. Receivers should compare in constant time (`verifyWebhookSignature`).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';

export function signWebhookBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

export function verifyWebhookSignature(secret: string, body: string, header: string | undefined | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signWebhookBody(secret, body));
  const received = Buffer.from(header);
  return expected.length === received.length && timingSafeEqual(expected, received);
}
