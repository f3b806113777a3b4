/**
 * `npm start`: the link-session service (API + hosted page, SQLite, sandbox networks) and the demo
 * integrator site beside it, on two loopback origins.
 */
import { startDemo } from '../demo/server.js';
import { systemClock } from '../server/src/core/clock.js';
import { readConfig } from '../server/src/config.js';
import { ensureDevAccount } from '../server/src/accounts/dev-account.js';
import { startService } from '../server/src/server.js';
import { openStorage } from '../server/src/storage/open-storage.js';

const config = readConfig();
const storage = await openStorage(config);
const apiKey = await ensureDevAccount(storage, config, systemClock);
if (!apiKey) throw new Error(`No API key for the demo: set API_KEY or remove ${config.dataDir} to start fresh.`);
const service = await startService({ config, storage, log: (line) => console.log(line) });
const demo = await startDemo({
  serviceUrl: service.url,
  apiKey,
  dataDir: config.dataDir,
  host: process.env.DEMO_HOST ?? 'localhost',
  port: Number(process.env.DEMO_PORT ?? 8788),
});
console.log(`
  Link-session service  ${service.url}/api
  Hosted linking page   ${config.linkingUrl}
  Demo integrator site  ${demo.url}   <- open this
`);

const shutdown = () => Promise.all([demo.close(), service.close()]).then(() => process.exit(0), () => process.exit(1));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
