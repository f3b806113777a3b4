/**
 * @module
 * `npm run start:service`: the service alone, with embedded defaults (SQLite under ./data, loopback).
 * `npm start` runs it together with the demo site (scripts/start.ts).
 */
import { systemClock } from './core/clock.js';
import { readConfig } from './config.js';
import { ensureDevAccount } from './accounts/dev-account.js';
import { startService } from './server.js';
import { openStorage } from './storage/open-storage.js';
import { jsonLogLine } from './core/observability/json-log.js';
import { lineWriter } from './core/observability/line-writer.js';

const config = readConfig();
const storage = await openStorage(config);
await ensureDevAccount(storage, config, systemClock);
const log = lineWriter();
const service = await startService({ config, storage, log });
log(jsonLogLine('info', `Link-session service on ${service.url} (API ${service.url}/api, hosted page ${config.linkingUrl})`));

const shutdown = () => service.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
