/**
 * @module
 * The service's side of the seam with the sandbox package (`@social-link-kit/sandbox`): what the fake networks are
 * given when the service mounts them. Types only; the package imports this module by name
 * (`@social-link-kit/server/sandbox-host.js`) and never reaches into `server/src` by path. The values are built once
 * per service by `sandboxHostOf` (sandbox-mount.ts); the stateless helpers the fakes share with the real adapters
 * (ids, hashing, error envelopes, wire formats) come from sandbox-kit.ts.
 */
import type { Clock } from './core/clock.js';
import type { ServiceConfig } from './config.js';
import type { TokenCipher } from './core/crypto/token-cipher.js';
import type { GuardedFetch } from './core/guarded-fetch.js';
import type { NetworkRegistry } from './networks/registry.js';
import type { Storage } from './storage/storage.js';
import type { Publishing } from './publishing/publishing.js';
import type { TelegramChat } from './linking/telegram-code.js';

export interface SandboxHost {
  /** The service's settings the fakes read (the live object: `publicUrl` is final only once the port is known). */
  config: Pick<ServiceConfig, 'publicUrl' | 'maxBodyBytes' | 'publishing' | 'sandboxLatencyMs'>;
  /** The service clock: sandbox tokens, posts and faults age with it. */
  clock: Clock;
  /** The service's database (`driver`, where the sandbox tables live) and the stores the fakes may read or link through. */
  storage: Storage;
  /** Which networks run on the sandbox, and their sandbox OAuth apps. */
  networks: NetworkRegistry;
  /** Seals the tokens of an account made by the `POST /api/sandbox/accounts` shortcut, as a browser link's are. */
  tokenCipher: TokenCipher;
  /** The job queue (the sandbox TikTok's processing callback); absent when the service has no publishing. */
  publishing?: Publishing | null;
  /** The guarded fetch allowed to reach this service's own origin only (the sandbox TikTok calls the app back). */
  fetchOwnOrigin: GuardedFetch;
  /** The bot's side of a telegram link: a code sent from a chat completes its session (the stand-in bot calls it). */
  completeTelegramCode(code: string, chat: TelegramChat & { id: number }, tokensFor: (chatId: string) => Promise<Record<string, unknown>>): Promise<boolean>;
}

export type { AppEnv as SandboxEnv } from './context.js';
export type { Clock } from './core/clock.js';
export type { ServiceConfig } from './config.js';
export type { Storage } from './storage/storage.js';
export type { SqlDriver, SqlExecutor } from './core/db/sql-driver.js';
export type { SqlDialect } from './core/db/sql-dialect.js';
export type { Row } from './core/db/rows.js';
export type { Profile } from './core/db/storage-types.js';
export type { StockImage } from './publishing/media/stock-images.js';
export type { Job } from './core/jobs/job-store.js';
export type { JobHandler, JobOutcome } from './core/jobs/job-worker.js';
