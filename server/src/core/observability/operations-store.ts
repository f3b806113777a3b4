/**
 * @module
 * The SQL behind `/ready` and the scrape-time gauges: the readiness probe's one-row write and read-only counts of
 * the webhook outbox (the jobs table's counts join here when the jobs module lands).
 */
import { SqlStore } from '../db/sql-store.js';

export class OperationsStore extends SqlStore {
  /** One upsert: the database is reachable and takes writes. */
  async touchProbe(now: number): Promise<void> {
    await this.db.run('INSERT INTO service_probe (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at', [now]);
  }

  /** Outbox rows by state; `late` = pending and due more than a minute ago. */
  async webhookOutboxCounts(now: number): Promise<{ state: string; count: number }[]> {
    const row = await this.db.get(
      `SELECT
        SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL THEN 1 ELSE 0 END) AS pending,
        SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL AND run_at < ? THEN 1 ELSE 0 END) AS late,
        SUM(CASE WHEN done_at IS NOT NULL THEN 1 ELSE 0 END) AS delivered,
        SUM(CASE WHEN failed_at IS NOT NULL THEN 1 ELSE 0 END) AS failed
       FROM jobs WHERE kind = 'webhook'`,
      [now - 60_000],
    );
    return ['pending', 'late', 'delivered', 'failed'].map((state) => ({ state, count: Number(row?.[state] ?? 0) }));
  }

  /**
   * Jobs by state from the jobs table of the jobs module (core/jobs): due (waiting for a worker), running (leased),
   * late (due for more than a minute), failed. Null while that table does not exist (before its migration). Due
   * times are on the service clock (`now`), leases on real time (`leaseNow`, core/jobs/job-store.ts).
   */
  async jobCounts(now: number, leaseNow: number = Date.now()): Promise<{ state: string; count: number }[] | null> {
    let row;
    try {
      row = await this.db.get(
        `SELECT
          SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL AND run_at <= ? AND (lease_until IS NULL OR lease_until < ?) THEN 1 ELSE 0 END) AS due,
          SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL AND lease_until >= ? THEN 1 ELSE 0 END) AS running,
          SUM(CASE WHEN done_at IS NULL AND failed_at IS NULL AND run_at < ? AND (lease_until IS NULL OR lease_until < ?) THEN 1 ELSE 0 END) AS late,
          SUM(CASE WHEN failed_at IS NOT NULL THEN 1 ELSE 0 END) AS failed
         FROM jobs WHERE kind <> 'webhook'`,
        [now, leaseNow, leaseNow, now - 60_000, leaseNow],
      );
    } catch {
      return null;
    }
    return ['due', 'running', 'late', 'failed'].map((state) => ({ state, count: Number(row?.[state] ?? 0) }));
  }
}
