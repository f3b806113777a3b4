/**
 * `NODE_ENV=production` without `SANDBOX_NETWORKS`: the sandbox is off (every /sandbox and /api/sandbox address
 * is a 404, no network is faked), no development account or key is written, and the routes that answer without
 * credentials are exactly the README's list ("Production", between the public-routes markers). The real service,
 * real SQLite, real HTTP on loopback.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readConfig } from '../../src/config.js';
import { ensureDevAccount } from '../../src/accounts/dev-account.js';
import { systemClock } from '../../src/core/clock.js';
import { startService, type RunningService } from '../../src/server.js';
import { openStorage } from '../../src/storage/open-storage.js';

const README = join(import.meta.dirname, '..', '..', '..', 'README.md');
const PRODUCTION = { NODE_ENV: 'production', TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ADMIN_TOKEN: randomBytes(24).toString('base64'), PORT: '0', HOST: '127.0.0.1' };

/** The README's list: every `` `METHOD /path` `` between the markers. */
function readmePublicRoutes(): string[] {
  const text = readFileSync(README, 'utf8');
  const block = /<!-- public-routes:start -->([\s\S]*?)<!-- public-routes:end -->/.exec(text)?.[1] ?? '';
  return [...block.matchAll(/`([A-Z]+ \/[^`]*)`/g)].map((m) => m[1]!).sort();
}

describe('production defaults', () => {
  let dir: string;
  let service: RunningService;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'slk-prod-'));
    const config = readConfig({ ...PRODUCTION, DATA_DIR: dir });
    const storage = await openStorage(config);
    assert.equal(await ensureDevAccount(storage, config, systemClock), null);
    service = await startService({ config, storage });
  });
  after(async () => {
    await service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('derives the sandbox mode from NODE_ENV and SANDBOX_NETWORKS', () => {
    assert.equal(readConfig({ ...PRODUCTION, DATA_DIR: dir }).networks.sandboxMode, 'off');
    assert.equal(readConfig({ ...PRODUCTION, DATA_DIR: dir, SANDBOX_NETWORKS: 'all' }).networks.sandboxMode, 'all');
    assert.equal(readConfig({ DATA_DIR: dir }).networks.sandboxMode, 'auto');
    assert.equal(readConfig({ ...PRODUCTION, DATA_DIR: dir, API_KEY: 'fixed' }).devApiKey, null);
  });

  it('writes no development account, API key or token key file', async () => {
    assert.equal(await service.storage.accounts.countAccounts(), 0);
    assert.deepEqual(readdirSync(dir).filter((name) => !name.startsWith('social-link.db')).filter((name) => name !== 'media'), []);
    assert.ok(!existsSync(join(dir, 'dev-api-key.txt')));
    assert.ok(!existsSync(join(dir, 'token-key')));
  });

  it('mounts no sandbox route, and answers 404 on sandbox addresses', async () => {
    const sandbox = service.routes.filter((r) => /^\/(api\/)?sandbox(\/|$)/.test(r.path));
    assert.deepEqual(sandbox, []);
    for (const path of ['/sandbox/consent', '/sandbox/twitter/2/tweets', '/sandbox/media/stock/1.jpg', '/api/sandbox/accounts', '/sandbox/oauth/authorize']) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const response = await fetch(`${service.url}${path}`, { method });
        assert.equal(response.status, 404, `${method} ${path}`);
      }
    }
  });

  it('answers without credentials on exactly the routes the README lists', async () => {
    const answering = new Set<string>();
    for (const { method, path } of service.routes) {
      if (method === 'ALL' || path.endsWith('*')) continue;
      const url = `${service.url}${path.replace(/:(\w+)(\{[^}]*\})?/g, 'x')}`;
      const response = await fetch(url, { method, redirect: 'manual', ...(method !== 'GET' && method !== 'HEAD' && { body: '{}', headers: { 'content-type': 'application/json' } }) });
      await response.arrayBuffer();
      if (response.status !== 401 && response.status !== 403) answering.add(`${method} ${path}`);
    }
    assert.deepEqual([...answering].sort(), readmePublicRoutes());
  });
});
