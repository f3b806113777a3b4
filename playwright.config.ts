/**
 * Playwright end-to-end tests (test/e2e) in the system Chromium: no browser download exists on this machine.
 * Each spec starts its own servers on loopback (the service on 127.0.0.1, integrator pages on localhost), so no
 * `webServer` entry is needed. `npm run test:e2e` builds the hosted page first.
 */
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './test/support/chromium.config.mjs';

export default defineConfig({
  testDir: 'test/e2e',
  workers: 1,
  fullyParallel: false,
  timeout: 30_000,
  // One retry on CI, where a fresh loaded machine runs everything once; a retried pass is listed as flaky in the
  // report, so it stays visible. Local runs never retry.
  retries: process.env.CI ? 1 : 0,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  // Visual regression screenshots live with the docs; `SCREENSHOTS=1` rewrites them, otherwise they are compared.
  snapshotPathTemplate: 'docs/screenshots/{arg}{ext}',
  updateSnapshots: process.env.SCREENSHOTS ? 'all' : 'missing',
  use: { headless: true, trace: 'retain-on-failure' },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } },
    },
  ],
});
