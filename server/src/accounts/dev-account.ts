/**
 * @module
 * The development account of a fresh install: created on the first run, its API key written to
 * `{dataDir}/dev-api-key.txt` (mode 0600) so the demo and the developer can use it. `API_KEY` in the
 * environment (config.devApiKey) fixes the key instead of a random one. Never in production (`NODE_ENV=production`):
 * there, accounts are made by the operator (`social-link-admin`), and no key is written to disk.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from './service.js';
import type { Clock } from '../core/clock.js';
import type { ServiceConfig } from '../config.js';
import type { Storage } from '../storage/storage.js';

export async function ensureDevAccount(storage: Storage, config: ServiceConfig, clock: Clock): Promise<string | null> {
  if (config.production) return null;
  const keyFile = join(config.dataDir, 'dev-api-key.txt');
  if ((await storage.accounts.countAccounts()) === 0) {
    const { apiKey } = await createAccount(storage, clock, { apiKey: config.devApiKey ?? undefined });
    writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
    console.log(`Created a development account; its API key is in ${keyFile}`);
    return apiKey;
  }
  return existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null;
}
