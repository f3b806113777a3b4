/**
 * @module
 * Each network's status, as integrators read it (`GET /api/networks/status`) and the hosted page shows it (Plaid's
 * institution health): counted from the last 30 minutes of connect attempts (a network error, 513) and publish
 * attempts (a failure the network caused: 5xx, a timeout, `retryAvailable`), so nothing extra is written on the hot
 * paths. With at least 5 outcomes, half or more failing is `down`, a fifth `degraded`. An operator's override
 * (`social-link-admin network-status set`) wins until cleared.
 */
import { NETWORKS, type Network, type NetworkStatusResponse } from '@social-link-kit/protocol';
import type { SqlExecutor } from '../core/db/sql-driver.js';

export const NETWORK_STATUS_WINDOW_MS = 30 * 60_000;
const MIN_OUTCOMES = 5;
const DOWN_RATIO = 0.5;
const DEGRADED_RATIO = 0.2;

type Entry = NetworkStatusResponse['networks'][number];
export type NetworkStatusValue = Entry['status'];

const networkFailure = (error: Record<string, unknown>) => error.retryAvailable === true || (typeof error.code === 'number' && error.code >= 500 && error.code < 600);

export async function networkStatuses(db: SqlExecutor, now: number): Promise<Entry[]> {
  const since = now - NETWORK_STATUS_WINDOW_MS;
  const counts = new Map<string, { outcomes: number; failures: number }>();
  const count = (platform: unknown, failed: boolean) => {
    const entry = counts.get(String(platform)) ?? { outcomes: 0, failures: 0 };
    entry.outcomes++;
    if (failed) entry.failures++;
    counts.set(String(platform), entry);
  };
  for (const row of await db.all(`SELECT platform, status, error FROM post_platforms WHERE finished_at >= ? AND status IN ('success', 'error')`, [since])) {
    if (row.status === 'success') count(row.platform, false);
    else if (networkFailure(JSON.parse((row.error as string | null) ?? '{}') as Record<string, unknown>)) count(row.platform, true);
  }
  for (const row of await db.all('SELECT platform, outcome FROM oauth_attempts WHERE used_at >= ? AND outcome IS NOT NULL', [since])) {
    const outcome = JSON.parse(row.outcome as string) as { outcome: string; code?: number };
    if (outcome.outcome === 'success') count(row.platform, false);
    else if (outcome.outcome === 'error' && outcome.code === 513) count(row.platform, true);
  }
  const overrides = new Map((await db.all('SELECT platform, status, message FROM network_status_overrides')).map((row) => [row.platform as string, row]));
  return NETWORKS.map((platform) => {
    const recent = counts.get(platform) ?? { outcomes: 0, failures: 0 };
    const override = overrides.get(platform);
    if (override) return { platform, status: override.status as NetworkStatusValue, source: 'operator', message: (override.message as string | null) ?? null, recent };
    const ratio = recent.outcomes >= MIN_OUTCOMES ? recent.failures / recent.outcomes : 0;
    const status: NetworkStatusValue = ratio >= DOWN_RATIO ? 'down' : ratio >= DEGRADED_RATIO ? 'degraded' : 'operational';
    return { platform, status, source: 'observed', message: null, recent };
  });
}

const CACHE_MS = 30_000;
const cache = new WeakMap<SqlExecutor, { at: number; value: Promise<Entry[]> }>();

/** The same, at most 30 s old (service clock): the hosted page's session view reads it on every load. */
export function recentNetworkStatuses(db: SqlExecutor, now: number): Promise<Entry[]> {
  const hit = cache.get(db);
  if (hit && now - hit.at < CACHE_MS && now >= hit.at) return hit.value;
  const value = networkStatuses(db, now);
  cache.set(db, { at: now, value });
  value.catch(() => cache.delete(db));
  return value;
}

/** The operator's word on a network; `null` clears it (back to the observed figures). */
export async function setNetworkStatusOverride(db: SqlExecutor, platform: Network, override: { status: NetworkStatusValue; message: string | null } | null, now: number): Promise<void> {
  if (override === null) {
    await db.run('DELETE FROM network_status_overrides WHERE platform = ?', [platform]);
    return;
  }
  await db.run(
    `INSERT INTO network_status_overrides (platform, status, message, set_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (platform) DO UPDATE SET status = excluded.status, message = excluded.message, set_at = excluded.set_at`,
    [platform, override.status, override.message, now],
  );
}
