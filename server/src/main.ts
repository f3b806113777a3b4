/**
 * @module
 * `npm start`: the service with embedded defaults (SQLite under ./data, loopback). On the first run it
 * creates a development account and writes its API key to data/dev-api-key.txt (mode 0600).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAccount } from './accounts.js';
import { systemClock } from './clock.js';
import { readConfig } from './config.js';
import { startService } from './server.js';
import { openStorage } from './storage/open-storage.js';

const config = readConfig();
const storage = await openStorage(config);
const keyFile = join(config.dataDir, 'dev-api-key.txt');
if ((await storage.countAccounts()) === 0) {
  const { apiKey } = await createAccount(storage, systemClock, { apiKey: process.env.API_KEY });
  writeFileSync(keyFile, `${apiKey}\n`, { mode: 0o600 });
  console.log(`Created a development account. Its API key is in ${keyFile}:\n  ${apiKey}`);
} else if (existsSync(keyFile)) {
  console.log(`Development API key: ${readFileSync(keyFile, 'utf8').trim()} (from ${keyFile})`);
}

const service = await startService({ config, storage, log: (line) => console.log(line) });
console.log(`Link-session service listening on ${service.url} (API ${service.url}/api, hosted page ${config.linkingUrl})`);

const shutdown = () => {
  service.close().then(() => process.exit(0), () => process.exit(1));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
