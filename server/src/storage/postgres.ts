/**
 * @module
 * The PostgreSQL backend, for several service instances on one database (`DATABASE_URL`): the shared storage code
 * (storage.ts), plus the abuse-limit counters that only PostgreSQL keeps (SQLite counts in process memory).
 */
import { applyMigrations } from '../core/db/migrate.js';
import { PostgresDriver } from '../core/db/postgres-driver.js';
import { Storage } from './storage.js';

/**
 * Abuse-limit counters (core/limits/shared-rate-limiter.ts). Not a numbered version: SQLite keeps these counters in
 * process memory, and the version numbers stay the same on both backends. UNLOGGED: losing the counters in a
 * crash only resets the windows, and it spares the WAL a write on every token lookup.
 */
export const POSTGRES_RATE_LIMIT_TABLE = `
  CREATE UNLOGGED TABLE IF NOT EXISTS rate_limit_windows (
    key TEXT PRIMARY KEY,
    window_start BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    count INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS rate_limit_windows_expiry ON rate_limit_windows(expires_at);
`;

export class PostgresStorage extends Storage {
  #rateLimitHits = 0;

  constructor(connectionString: string) {
    super(new PostgresDriver(connectionString));
  }

  override async migrate(): Promise<void> {
    await this.driver.whileMigrating(async (connection) => {
      await applyMigrations(connection, this.driver.dialect);
      await connection.exec(POSTGRES_RATE_LIMIT_TABLE);
    });
  }

  /**
   * Counts one event in `key`'s window, shared by every instance on this database (core/limits/shared-rate-limiter.ts;
   * not part of the Storage interface, since SQLite counts in memory). One upsert, so concurrent hits from several
   * instances each add exactly one; a window older than `windowMs` restarts at `now` with a count of 1.
   * PostgreSQL-only SQL, so it numbers its own placeholders.
   */
  async countRateLimitHit(key: string, windowMs: number, now: number): Promise<{ windowStart: number; count: number }> {
    const row = await this.driver.get(
      `INSERT INTO rate_limit_windows AS w (key, window_start, expires_at, count) VALUES ($1, $2::bigint, $2::bigint + $3::bigint, 1)
       ON CONFLICT (key) DO UPDATE SET
         window_start = CASE WHEN w.window_start + $3 <= $2 THEN $2 ELSE w.window_start END,
         expires_at = CASE WHEN w.window_start + $3 <= $2 THEN $2 + $3 ELSE w.expires_at END,
         count = CASE WHEN w.window_start + $3 <= $2 THEN 1 ELSE w.count + 1 END
       RETURNING window_start, count`,
      [key, now, windowMs],
    );
    // Expired windows are dropped now and then, so one row per IP ever seen does not pile up.
    if (++this.#rateLimitHits % 1000 === 0) await this.driver.run('DELETE FROM rate_limit_windows WHERE expires_at <= ?', [now]);
    return { windowStart: row!.window_start as number, count: row!.count as number };
  }
}
