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

/**
 * Every secret value the stack saw in an API answer (link tokens in session URLs, API keys, profile keys), so
 * `stop()` can grep the service's log for them: each e2e spec on the stack is a log-leak check (issue 16).
 */
function collectSecrets(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) collectSecrets(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string' && /^(apiKey|profileKey|token|secret)$/i.test(key) && field.length >= 16) into.add(field);
      else if (typeof field === 'string' && key === 'url' && URL.canParse(field)) {
        const token = new URL(field).searchParams.get('session');
        if (token) into.add(token);
      } else collectSecrets(field, into);
    }
  }
}

/** Throws when a secret the stack saw, or any unredacted `session=` token, is in the service log. */
export function assertLogsKeepSecrets(logs: string[], secrets: Set<string>): void {
  const log = logs.join('\n');
  if (log.length === 0) throw new Error('the service wrote no log lines: nothing was checked');
  const leaked = [...secrets].filter((secret) => log.includes(secret)).map((secret) => `${secret.slice(0, 6)}…`);
  if (leaked.length > 0) throw new Error(`secrets reached the service log: ${leaked.join(', ')}`);
  const unredacted = log.match(/[?&#]session=(?!\[redacted\])[A-Za-z0-9_-]{8,}/);
  if (unredacted) throw new Error('a link token reached the service log');
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
  const secrets = new Set([API_KEY]);
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
      const json = await response.json();
      collectSecrets(json, secrets);
      return { status: response.status, json };
    },
    async stop() {
      await stopChild(service.process);
      rmSync(dataDir, { recursive: true, force: true });
      assertLogsKeepSecrets(service.logs, secrets);
    },
  };
}
