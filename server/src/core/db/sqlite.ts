/**
 * @module
 * The embedded storage backend: the shared storage code (sql-storage.ts) on one SQLite file.
 */
import { SqliteDriver } from './sqlite-driver.js';
import { SqlStorage } from './sql-storage.js';

export class SqliteStorage extends SqlStorage {
  constructor(filename: string) {
    super(new SqliteDriver(filename));
  }
}
