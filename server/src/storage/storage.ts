/**
 * @module
 * The composition of the per-feature stores over one database driver: each feature's `store.ts` owns its SQL, and
 * work that spans features (linking an account and queueing its event, deleting a profile) runs in a service, in one
 * transaction on `driver`. Built here, by the composition root, so no feature reaches into another's tables.
 */
import { AccountStore } from '../accounts/store.js';
import { applyMigrations } from '../core/db/migrate.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import { IntegrationKeyStore } from '../linking/legacy-jwt/store.js';
import { LinkingStore } from '../linking/store.js';
import { WebhookStore } from '../webhooks/store.js';
import { PostStore } from '../publishing/post-store.js';

export class Storage {
  readonly kind: SqlDriver['kind'];
  /** For services whose work spans stores: `driver.transaction(tx => …)`. */
  readonly driver: SqlDriver;
  readonly accounts: AccountStore;
  readonly linking: LinkingStore;
  readonly webhooks: WebhookStore;
  readonly integrationKeys: IntegrationKeyStore;
  /** Posts and their platform attempts (publishing). */
  readonly posts: PostStore;

  constructor(driver: SqlDriver) {
    this.driver = driver;
    this.kind = driver.kind;
    this.accounts = new AccountStore(driver);
    this.linking = new LinkingStore(driver);
    this.webhooks = new WebhookStore(driver);
    this.integrationKeys = new IntegrationKeyStore(driver);
    this.posts = new PostStore(driver);
  }

  async migrate(): Promise<void> {
    await this.driver.whileMigrating((connection) => applyMigrations(connection, this.driver.dialect));
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
