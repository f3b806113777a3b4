/**
 * What a test of SQLite's commits observes, on a real file: the commits the driver makes, the rows another process
 * would read (only committed ones), and the power-loss image of each answer (what the WAL and the database file held
 * when the last fdatasync that had ended before the answer began: what a power loss at that moment would leave).
 */
import { copyFileSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Row } from '../../src/core/db/rows.js';
import type { SqliteDriver } from '../../src/core/db/sqlite-driver.js';
import type { CommitObservation } from '../../src/core/db/write-batch.js';

/** The commits `driver` makes while `work` runs (its own background writes included). */
export async function commitsDuring(driver: SqliteDriver, work: () => Promise<unknown>): Promise<CommitObservation[]> {
  const seen: CommitObservation[] = [];
  driver.observeCommits((observation) => seen.push(observation));
  try {
    await work();
  } finally {
    driver.observeCommits(null);
  }
  return seen;
}

/** Rows as a second connection reads `file`, as another process would: it sees only committed rows. */
export function committedRows(file: string, sql: string): Row[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}

/**
 * Runs `work` while each sync of the WAL copies the database files (below `dir`) as it starts: what that sync makes
 * durable is at least what the files hold then. `durableNow()` is the copy of the last sync that had ended;
 * `images` every copy made so far (one per sync).
 */
export async function withPowerLossImages<T>(driver: SqliteDriver, file: string, dir: string, work: (durableNow: () => string | null, images: readonly string[]) => Promise<T>): Promise<T> {
  const images: string[] = [];
  let copying: string | null = null;
  let durable: string | null = null;
  driver.observeSyncs((phase) => {
    if (phase === 'end') {
      durable = copying;
      return;
    }
    copying = mkdtempSync(join(dir, 'power-loss-'));
    copyFileSync(`${file}-wal`, join(copying, 'image.db-wal'));
    copyFileSync(file, join(copying, 'image.db'));
    images.push(copying);
  });
  try {
    return await work(() => durable, images);
  } finally {
    driver.observeSyncs(null);
  }
}

/** Opens a power-loss image as the database a restart would recover. */
export function readImage<T>(image: string, read: (db: Database.Database) => T): T {
  const db = new Database(join(image, 'image.db'));
  try {
    return read(db);
  } finally {
    db.close();
  }
}
