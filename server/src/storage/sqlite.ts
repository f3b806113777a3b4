/**
 * @module
 * The embedded storage backend: the per-feature stores (storage.ts) on one SQLite file.
 */
import { SqliteDriver } from '../core/db/sqlite-driver.js';
import type { SqliteSynchronous } from '../core/db/sqlite-settings.js';
import { Storage } from './storage.js';

export class SqliteStorage extends Storage {
  constructor(filename: string, synchronous: SqliteSynchronous = 'mixed', mmapMb = 0) {
    super(new SqliteDriver(filename, synchronous, mmapMb));
  }
}
