/**
 * @module
 * Stored analytics (analytics_snapshots): every successful answer is appended; reads look back at most
 * `maxAgeMs` (4 days: older data is stale and never used).
 */
import type { Network } from '@social-link-kit/protocol';
import type { SqlDriver } from '../core/db/sql-driver.js';
import { newId } from '../core/tokens.js';

/** The subject of account-level snapshots (post snapshots use the network post id). */
export const ACCOUNT_SUBJECT = 'account';

export interface Snapshot {
  metrics: Record<string, number>;
  /** Non-numeric fields kept with the answer (youtube descriptive fields, `limited`). */
  extra: Record<string, unknown> | null;
  takenAt: number;
}

export class AnalyticsStore {
  constructor(private readonly db: SqlDriver) {}

  async add(profileId: string, platform: Network, subject: string, snapshot: Snapshot): Promise<void> {
    await this.db.run('INSERT INTO analytics_snapshots (id, profile_id, platform, subject, metrics, extra, taken_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      newId('ans_'),
      profileId,
      platform,
      subject,
      JSON.stringify(snapshot.metrics),
      snapshot.extra ? JSON.stringify(snapshot.extra) : null,
      snapshot.takenAt,
    ]);
  }

  /** Snapshots of a subject taken at or after `since`, newest first. */
  async recent(profileId: string, platform: Network, subject: string, since: number, limit = 200): Promise<Snapshot[]> {
    const rows = await this.db.all(
      `SELECT metrics, extra, taken_at FROM analytics_snapshots WHERE profile_id = ? AND platform = ? AND subject = ? AND taken_at >= ?
       ORDER BY taken_at DESC LIMIT ${Math.floor(limit)}`,
      [profileId, platform, subject, since],
    );
    return rows.map((row) => ({
      metrics: JSON.parse(row.metrics as string) as Record<string, number>,
      extra: row.extra ? (JSON.parse(row.extra as string) as Record<string, unknown>) : null,
      takenAt: Number(row.taken_at),
    }));
  }

  /** When the subject was last snapshotted (any age), or null. */
  async lastTakenAt(profileId: string, platform: Network, subject: string): Promise<number | null> {
    const row = await this.db.get('SELECT MAX(taken_at) AS last FROM analytics_snapshots WHERE profile_id = ? AND platform = ? AND subject = ?', [
      profileId,
      platform,
      subject,
    ]);
    return row?.last === null || row?.last === undefined ? null : Number(row.last);
  }
}
