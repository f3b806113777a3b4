/**
 * Starts the real service (and optionally the demo site) as child processes on loopback, each with a fresh
 * SQLite file, exactly as `npm start` runs them. The service is on http://127.0.0.1:<port>; integrator pages run
 * on http://localhost:<other port>, a different origin.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../server/test/support/child-service.js';

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
  const logs: string[] = [];
  const script = options.withDemo ? 'scripts/start.ts' : 'server/src/main.ts';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], {
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_PORT: String(demoPort),
      DATA_DIR: dataDir,
      API_KEY,
      SANDBOX_NETWORKS: 'all',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = options.withDemo ? /Demo integrator site/ : /Link-session service on/;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      if (ready.test(logs.join(''))) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`service exited (${code}):\n${logs.join('')}`)));
  });
  const serviceUrl = `http://127.0.0.1:${port}`;
  return {
    serviceUrl,
    demoUrl: options.withDemo ? `http://localhost:${demoPort}` : null,
    dataDir,
    logs,
    async api(method, path, body, headers = {}) {
      const response = await fetch(`${serviceUrl}/api${path}`, {
        method,
        headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
