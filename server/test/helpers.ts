/**
 * Test harness: the real service on a loopback port with a real SQLite file in a temp directory,
 * a clock the test can move, and the real client talking HTTP to it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinkClient } from '../../src/client/index.js';
import { createAccount, type NewAccountOptions } from '../src/accounts.js';
import { readConfig, type ServiceConfig } from '../src/config.js';
import type { Mailer } from '../src/email/link-email.js';
import { startService } from '../src/server.js';
import { openStorage } from '../src/storage/open-storage.js';

export interface TestClock {
  (): number;
  advance(ms: number): void;
}

export function testClock(start = Date.parse('2026-11-22T12:00:00Z')): TestClock {
  let now = start;
  const clock = (() => now) as TestClock;
  clock.advance = (ms) => {
    now += ms;
  };
  return clock;
}

export interface TestServiceOptions {
  account?: NewAccountOptions;
  mailer?: Mailer | null;
  env?: NodeJS.ProcessEnv;
}

export async function startTestService(options: TestServiceOptions = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-test-'));
  const config: ServiceConfig = {
    ...readConfig({ DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', ...options.env }),
  };
  const clock = testClock();
  const storage = await openStorage(config);
  const { account, primaryProfile, apiKey } = await createAccount(storage, clock, options.account);
  const logLines: string[] = [];
  const service = await startService({
    config,
    storage,
    clock,
    mailer: options.mailer ?? null,
    log: (line) => logLines.push(line),
    // Only what the test sets: no network credentials from the developer's shell.
    env: { ...options.env },
  });
  const client = createLinkClient({ baseUrl: `${service.url}/api`, apiKey });

  /** Raw HTTP, for inputs the typed client would never send. */
  async function api(method: string, path: string, init: { body?: unknown; headers?: Record<string, string>; rawBody?: string } = {}) {
    const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}`, ...init.headers };
    const body = init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body));
    if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    const response = await fetch(`${service.url}/api${path}`, { method, headers, body });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
  }

  return {
    url: service.url,
    dir,
    config,
    clock,
    storage,
    account,
    primaryProfile,
    apiKey,
    client,
    api,
    logLines,
    async close() {
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type TestService = Awaited<ReturnType<typeof startTestService>>;

/** The `session` token inside a link URL. */
export function tokenOf(linkUrl: string): string {
  const token = new URL(linkUrl).searchParams.get('session');
  if (!token) throw new Error(`no session token in ${linkUrl}`);
  return token;
}
