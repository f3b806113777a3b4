/**
 * @module
 * When an account is renewed or checked next. Every account has its own time of day (a hash of profile and network),
 * so a million accounts are spread over the day instead of all renewing at midnight, and each is renewed once a day
 * at that time (Nango's rule: inactivity revokes some grants), never sooner than an hour after the last check, so
 * never more than 25 hours apart. A long-lived token (a day or more: linkedin's and
 * Meta's 60 days) is renewed ahead of its expiry as well; hour-long tokens (google, the sandbox) are renewed when
 * used (token-refresher.ts) and daily. Transient failures back off exponentially up to 6 hours, for as long as they
 * last: they never make the account need a relink.
 */
import { createHash } from 'node:crypto';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** Tokens living at least this long are renewed ahead of their expiry. */
export const LONG_LIVED_MS = DAY;
/** How long before a long-lived token ends it is renewed. */
const EXPIRY_LEAD_MS = 2 * DAY;
/** Never sooner than this after a check (a slot just passed is taken tomorrow). */
export const MIN_GAP_MS = HOUR;
const BACKOFF_BASE_MS = 5 * MINUTE;
const BACKOFF_MAX_MS = 6 * HOUR;

/** The account's fixed offset in the day, from its key: the same every day, different between accounts. */
export function slotOfDay(profileId: string, platform: string): number {
  const digest = createHash('sha256').update(`${profileId}|${platform}`).digest();
  return digest.readUInt32BE(0) % DAY;
}

/** The next renewal after a successful one (or after linking). */
export function nextRefreshAt(now: number, key: { profileId: string; platform: string }, token: { expiresAt: number | null; lifetimeMs: number | null }): number {
  const dayStart = now - (now % DAY);
  let slot = dayStart + slotOfDay(key.profileId, key.platform);
  while (slot < now + MIN_GAP_MS) slot += DAY;
  if (token.expiresAt !== null && token.lifetimeMs !== null && token.lifetimeMs >= LONG_LIVED_MS) {
    return Math.max(now + MIN_GAP_MS, Math.min(slot, token.expiresAt - EXPIRY_LEAD_MS));
  }
  return slot;
}

/** The next attempt after `failures` transient failures in a row (exponential, capped, with jitter). */
export function retryAt(now: number, failures: number, random: () => number = Math.random): number {
  const exponential = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(Math.max(0, failures - 1), 20));
  return now + Math.round(exponential / 2 + (exponential / 2) * random());
}
