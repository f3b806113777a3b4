/**
 * @module
 * `npm run start:service`: the service alone, with embedded defaults (SQLite under ./data, loopback).
 * `npm start` runs it together with the demo site (scripts/start.ts). A bad setting stops it before anything is
 * written, with one line naming the variable and exit code 1 (settings-schema.ts).
 */
import { mkdirSync } from 'node:fs';
import { systemClock } from './core/clock.js';
import { readConfig, type ServiceConfig } from './config.js';
import { ensureDevAccount } from './accounts/dev-account.js';
import { startService } from './server.js';
import { openStorage } from './storage/open-storage.js';
import { jsonLogLine } from './core/observability/json-log.js';
import { lineWriter } from './core/observability/line-writer.js';
import { SettingsError } from './settings-schema.js';

let config: ServiceConfig;
try {
  config = readConfig();
  // DATA_DIR holds key files and media even with DATABASE_URL: made here, or the start is refused in one line.
  mkdirSync(config.dataDir, { recursive: true });
} catch (error) {
  if (!(error instanceof SettingsError) && !isFileSystemError(error)) throw error;
  const reason = error instanceof SettingsError ? error.message : `DATA_DIR cannot be created or used (${(error as NodeJS.ErrnoException).code}): set it to a writable folder.`;
  process.stderr.write(`social-link-kit: ${reason}\n`);
  process.exit(1);
}
const storage = await openStorage(config);
await ensureDevAccount(storage, config, systemClock);
const log = lineWriter();
const service = await startService({ config, storage, log });
log(jsonLogLine('info', `Link-session service on ${service.url} (API ${service.url}/api, hosted page ${config.linkingUrl})`));

const shutdown = () => service.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

function isFileSystemError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}
