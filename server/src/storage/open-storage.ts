/**
 * @module
 * Picks the storage backend: PostgreSQL when `DATABASE_URL` is set, else the embedded SQLite file.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ServiceConfig } from '../config.js';
import { PostgresStorage } from './postgres.js';
import { SqliteStorage } from './sqlite.js';
import type { Storage } from './storage.js';

export async function openStorage(config: Pick<ServiceConfig, 'databaseFile' | 'databaseUrl'> & Partial<Pick<ServiceConfig, 'sqliteSynchronous' | 'sqliteMmapMb'>>): Promise<Storage> {
  if (config.databaseUrl) {
    const storage = new PostgresStorage(config.databaseUrl);
    await storage.migrate();
    return storage;
  }
  if (config.databaseFile !== ':memory:') mkdirSync(dirname(config.databaseFile), { recursive: true });
  const storage = new SqliteStorage(config.databaseFile, config.sqliteSynchronous, config.sqliteMmapMb);
  await storage.migrate();
  return storage;
}
