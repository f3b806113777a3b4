/**
 * @module
 * TikTok's webhook signature: the header `TikTok-Signature: t=<unix seconds>,s=<hex>` where `s` is the HMAC-SHA256
 * of `<t>.<raw body>` keyed with the app's client secret. A signature older (or newer) than the tolerance is refused
 * so a captured callback cannot be replayed later; within it, resolving a post is idempotent (publishing/routes/tiktok-callback.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const TIKTOK_SIGNATURE_HEADER = 'TikTok-Signature';
/** How far the signed time may be from the service clock. */
export const TIKTOK_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

const digestOf = (clientSecret: string, t: string, rawBody: string) => createHmac('sha256', clientSecret).update(`${t}.${rawBody}`).digest();

export function tiktokSignature(clientSecret: string, unixSeconds: number, rawBody: string): string {
  return `t=${unixSeconds},s=${digestOf(clientSecret, String(unixSeconds), rawBody).toString('hex')}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'mismatch' };

export function verifyTiktokSignature(header: string | undefined, rawBody: string, clientSecret: string, nowMs: number): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  const fields = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string | undefined]));
  const t = fields.get('t');
  const s = fields.get('s');
  if (!t || !/^\d{1,12}$/.test(t) || !s || !/^[0-9a-f]{64}$/i.test(s)) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowMs - Number(t) * 1000) > TIKTOK_SIGNATURE_TOLERANCE_MS) return { ok: false, reason: 'expired' };
  const expected = digestOf(clientSecret, t, rawBody);
  const given = Buffer.from(s, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected) ? { ok: true } : { ok: false, reason: 'mismatch' };
}
