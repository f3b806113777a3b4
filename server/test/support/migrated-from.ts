/**
 * A migration on a real database: the schema as it was at `version` (its migrations run and recorded), `seed` (that
 * version's rows) written in it, then the service's storage opened and migrated to today's schema, and `check` run
 * on it. SQLite in a temporary file; PostgreSQL in a fresh database of TEST_DATABASE_URL's server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../src/core/db/schema.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import type { Storage } from '../../src/storage/storage.js';
import { freshDatabase } from './fresh-database.js';

/** The migrations up to `version` as applied, as the service records them. */
function recordedVersions(version: number): string {
  return `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL);
    INSERT INTO schema_migrations (version, applied_at) VALUES ${Array.from({ length: version }, (_, index) => `(${index + 1}, 0)`).join(', ')};`;
}

async function migratedThenChecked(storage: Storage, check: (storage: Storage) => Promise<void>): Promise<void> {
  await storage.migrate();
  try {
    await check(storage);
  } finally {
    await storage.close();
  }
}

export async function sqliteMigratedFrom(version: number, seed: string, check: (storage: Storage) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'slk-migrated-from-'));
  const file = join(dir, 'service.db');
  try {
    const raw = new Database(file);
    for (const sql of SQLITE_MIGRATIONS.slice(0, version)) raw.exec(sql);
    raw.exec(recordedVersions(version));
    raw.exec(seed);
    raw.close();
    await migratedThenChecked(new SqliteStorage(file), check);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function postgresMigratedFrom(version: number, seed: string, check: (storage: Storage) => Promise<void>): Promise<void> {
  const database = await freshDatabase(`slk_migrated_from_${version}`);
  try {
    for (const sql of POSTGRES_MIGRATIONS.slice(0, version)) await database.query(sql);
    await database.query(recordedVersions(version));
    await database.query(seed);
    await migratedThenChecked(new PostgresStorage(database.url), check);
  } finally {
    await database.drop();
  }
}
