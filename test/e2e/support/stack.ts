/**
 * Starts the real service (and optionally the demo site) as a child process on loopback (the shared harness in
 * server/test/support/), with a fresh SQLite file, exactly as `npm start` runs them. The service is on http://127.0.0.1:<port>; integrator pages run
 * on http://localhost:<other port>, a different origin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startChildService } from '../../../server/test/support/child-service.js';
import { stopChild } from '../../../server/test/support/stop-child.js';

export const API_KEY = `sk_e2e_${'k'.repeat(40)}`;

export interface Stack {
  serviceUrl: string;
  demoUrl: string | null;
  dataDir: string;
  logs: string[];
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  stop(): Promise<void>;
}

export async function startStack(options: { withDemo?: boolean; env?: Record<string, string> } = {}): Promise<Stack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'slk-e2e-'));
  const port = await freePort();
  const demoPort = options.withDemo ? await freePort() : 0;
  const env = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DEMO_PORT: String(demoPort),
    DATA_DIR: dataDir,
    API_KEY,
    SANDBOX_NETWORKS: 'all',
    ...options.env,
  };
  const service = await startChildService(
    env,
    options.withDemo ? { script: 'scripts/start.ts', ready: /Demo integrator site/ } : { ready: /Link-session service on/ },
  );
  const serviceUrl = `http://127.0.0.1:${port}`;
  return {
    serviceUrl,
    demoUrl: options.withDemo ? `http://localhost:${demoPort}` : null,
    dataDir,
    logs: service.logs,
    async api(method, path, body, headers = {}) {
      const response = await fetch(`${serviceUrl}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    async stop() {
      await stopChild(service.process);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
