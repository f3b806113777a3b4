/**
 * Playwright fixtures for the e2e specs: the servers a spec needs, started by the first test of a spec file that
 * asks for them and shared by the rest of that file, as the beforeAll/afterAll pair in every spec did. The worker
 * holds them (`servers`), stops a file's servers when it moves on to the next file, and stops the last file's when
 * it ends, so no two files share a database.
 *
 *   import { expect, test } from '../support/fixtures.js';
 *   test.use({ stackOptions: { withDemo: true } });
 *   test('…', async ({ page, stack }) => { await page.goto(stack.demoUrl!); });
 */
import { test as base } from '@playwright/test';
import { assertNoTokenLeaked, startHarness, type Harness } from '../hosted/harness.js';
import { startPageServer, type PageServer } from '../hosted/fixtures/page-server.js';
import { startStack, type Stack } from './stack.js';

export { expect } from '@playwright/test';

export type StackOptions = NonNullable<Parameters<typeof startStack>[0]>;

/** The servers of the spec file being run, started on first use and stopped together. */
export class FileServers {
  private file: string | null = null;
  private readonly started = new Map<string, { value: unknown; stop: () => Promise<void> }>();

  /** The server `name` of `file`, started with `start` unless this file already has it. */
  async get<T>(file: string, name: string, start: () => Promise<T>, stop: (value: T) => Promise<void>): Promise<T> {
    if (this.file !== file) {
      await this.stopAll();
      this.file = file;
    }
    const existing = this.started.get(name);
    if (existing) return existing.value as T;
    const value = await start();
    this.started.set(name, { value, stop: () => stop(value) });
    return value;
  }

  /** A server the current file already started, for its afterAll checks. */
  current<T>(name: string): T | undefined {
    return this.started.get(name)?.value as T | undefined;
  }

  /** Stops in reverse start order: page servers before the service they talk to. */
  async stopAll(): Promise<void> {
    const started = [...this.started.values()].reverse();
    this.started.clear();
    for (const server of started) await server.stop();
  }
}

interface WorkerFixtures {
  /** How `stack` starts: the demo site too (`withDemo`), extra environment (`env`). Set with `test.use`. */
  stackOptions: StackOptions;
  servers: FileServers;
}

interface TestFixtures {
  /** The service (and the demo site with `withDemo`) as child processes, as `npm start` runs them. */
  stack: Stack;
  /** The in-process service with its integrator page and a third origin (test/e2e/hosted/harness.ts). */
  harness: Harness;
  /** The integrator test page on http://localhost:<port>. */
  integrator: PageServer;
  /** The same page on another port: an origin unrelated to the session. */
  thirdParty: PageServer;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  stackOptions: [{}, { scope: 'worker', option: true }],
  servers: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern
    async ({}, use) => {
      const servers = new FileServers();
      await use(servers);
      await servers.stopAll();
    },
    { scope: 'worker' },
  ],
  stack: async ({ servers, stackOptions }, use, testInfo) => {
    await use(await servers.get(testInfo.file, 'stack', () => startStack(stackOptions), (stack) => stack.stop()));
  },
  harness: async ({ servers }, use, testInfo) => {
    await use(await servers.get(testInfo.file, 'harness', startHarness, (harness) => harness.close()));
  },
  integrator: async ({ servers }, use, testInfo) => {
    await use(await servers.get(testInfo.file, 'integrator', () => startPageServer('localhost'), (server) => server.close()));
  },
  thirdParty: async ({ servers }, use, testInfo) => {
    await use(await servers.get(testInfo.file, 'thirdParty', () => startPageServer('localhost'), (server) => server.close()));
  },
});

/** For a spec using `harness`: once its tests ran, no link token it issued reached the service log. */
export function checkNoTokenLeakedAfterAll(): void {
  test.afterAll(async ({ servers }) => {
    const harness = servers.current<Harness>('harness');
    if (harness) assertNoTokenLeaked(harness);
  });
}
