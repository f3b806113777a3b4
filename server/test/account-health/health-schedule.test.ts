/**
 * The renewal schedule as a pure function: each account keeps its own time of day, is never checked sooner than an
 * hour after the last check and never later than 25 hours after it, whatever the time of day the check happened at.
 * (The account-health suite once asserted "within 24 hours" and failed only when CI ran in the hour before the
 * account's slot.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DAY, MIN_GAP_MS, nextRefreshAt, slotOfDay } from '../../src/account-health/health-schedule.js';

const HOUR = 3_600_000;
const noToken = { expiresAt: null, lifetimeMs: null };

describe('renewal schedule', () => {
  it('falls between one hour and 25 hours after any check, on the account\'s own time of day', () => {
    const key = { profileId: 'profile-a', platform: 'twitter' };
    const slot = slotOfDay(key.profileId, key.platform);
    const base = Date.UTC(2026, 10, 28);
    // Every 7 minutes over two days, including the hour just before the slot.
    for (let now = base; now < base + 2 * DAY; now += 7 * 60_000) {
      const next = nextRefreshAt(now, key, noToken);
      assert.ok(next - now >= MIN_GAP_MS, `at least an hour later (now ${new Date(now).toISOString()})`);
      assert.ok(next - now < DAY + MIN_GAP_MS, `within 25 hours (now ${new Date(now).toISOString()})`);
      assert.equal(next % DAY, slot, 'on its time of day');
    }
  });

  it('spreads accounts over the day', () => {
    const hours = new Set<number>();
    for (let i = 0; i < 200; i++) hours.add(Math.floor(slotOfDay(`profile-${i}`, 'linkedin') / HOUR));
    assert.ok(hours.size >= 20, `200 accounts fall in ${hours.size} of 24 hours`);
  });

  it('renews a long-lived token two days before it ends, when that comes before the daily slot', () => {
    const key = { profileId: 'profile-b', platform: 'linkedin' };
    const now = Date.UTC(2026, 10, 28, 12);
    const expiresAt = now + 2 * DAY + 3 * HOUR;
    assert.equal(nextRefreshAt(now, key, { expiresAt, lifetimeMs: 60 * DAY }), Math.min(expiresAt - 2 * DAY, nextRefreshAt(now, key, noToken)));
    // A token already inside its lead time is renewed an hour later, not in the past.
    assert.equal(nextRefreshAt(now, key, { expiresAt: now + DAY, lifetimeMs: 60 * DAY }), now + MIN_GAP_MS);
  });
});
