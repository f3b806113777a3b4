/**
 * @module
 * What every feature store (accounts/store.ts, linking/store.ts, …) starts from: the shared driver its SQL runs on
 * and that database's dialect.
 */
import type { SqlDialect } from './sql-dialect.js';
import type { SqlDriver } from './sql-driver.js';

export abstract class SqlStore {
  protected readonly db: SqlDriver;
  protected readonly dialect: SqlDialect;

  constructor(driver: SqlDriver) {
    this.db = driver;
    this.dialect = driver.dialect;
  }
}
