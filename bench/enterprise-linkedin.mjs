import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startChildService } from '../server/test/support/child-service.ts';
import { stopChild } from '../server/test/support/stop-child.ts';

// The setup the publishing benches share: the service's one account on the enterprise plan (100,000 posts a month,
// so the default plan's quota cannot end a run with 429s) and a sandbox linkedin account linked to its primary profile.
export async function enterpriseWithLinkedin(origin, apiKey, adminToken) {
  const admin = { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' };
  const { accounts } = await (await fetch(`${origin}/admin/api/accounts`, { headers: admin })).json();
  const planned = await fetch(`${origin}/admin/api/accounts/${accounts[0].id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ plan: 'enterprise' }) });
  if (!planned.ok) throw new Error(`set the plan: ${planned.status} ${await planned.text()}`);
  const linked = await fetch(`${origin}/api/sandbox/accounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ platform: 'linkedin' }),
  });
  if (!linked.ok) throw new Error(`link linkedin: ${linked.status} ${await linked.text()}`);
}

/**
 * A service in its own process (`root`, by default SERVICE_ROOT=<dir>, runs another copy of the repository) with a
 * data dir of its own, set up as above: what the benches that trace the service's process start with. The caller
 * stops `service.process` and removes `dir`.
 */
export async function startLinkedinService(dirPrefix, root = process.env.SERVICE_ROOT) {
  const apiKey = 'sk_bench_' + 'l'.repeat(40);
  const adminToken = 'bench-admin-token-' + 'l'.repeat(32);
  const dir = mkdtempSync(join(tmpdir(), dirPrefix));
  const script = root ? join(root, 'server/src/main.ts') : undefined;
  const service = await startChildService({ DATA_DIR: dir, API_KEY: apiKey, ADMIN_TOKEN: adminToken, PORT: String(await freePort()), SANDBOX_NETWORKS: 'all' }, { script });
  service.process.stdout.removeAllListeners('data').resume();
  try {
    await enterpriseWithLinkedin(service.url, apiKey, adminToken);
  } catch (error) {
    await stopChild(service.process);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return { service, dir, api: `${service.url}/api`, headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' } };
}
