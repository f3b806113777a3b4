/**
 * The README's React example (readme-example.tsx, compared with the README's block here) in real Chromium against the
 * real service: bundled with esbuild as an app would bundle it (React from the npm registry, `social-link-kit/react`
 * and `social-link-kit/define.js` resolved to this checkout's sources), served by a small integrator backend that
 * creates link sessions with the API key. `useSocialLink()` links LinkedIn through the sandbox consent screen and
 * shows it; `<social-link-button>` gets its `getUrl` property and its `onsocial-link-success` listener from JSX.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { FrameLocator, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import type { Stack } from '../support/stack.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const PAGE = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>React example</title></head><body><main id="root"></main><script type="module" src="/app.js"></script></body></html>';

async function bundleApp(): Promise<string> {
  const result = await build({
    entryPoints: [here('./app.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    alias: { 'social-link-kit/react': here('../../../src/react/index.ts'), 'social-link-kit/define.js': here('../../../src/widget/define.ts') },
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}

/** The integrator: its page, its bundle, and `POST /link-session` made with the API key on the server side. */
async function startIntegrator(stack: Stack, script: string): Promise<{ origin: string; close(): Promise<void> }> {
  let origin = '';
  const server: Server = createServer(async (request, response) => {
    if (request.method === 'POST' && request.url === '/link-session') {
      const { status, json } = await stack.api('POST', '/profiles/link-sessions', { origin, allowedSocial: ['linkedin', 'facebook'] });
      return void response.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: json.url, sessionId: json.sessionId }));
    }
    if (request.url === '/app.js') return void response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(script);
    if (request.url === '/') return void response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://localhost:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Connects `network` in the framed hosted page through the sandbox consent popup. */
async function allowInConsentPopup(page: Page, frame: FrameLocator, network: string) {
  const popupPromise = page.waitForEvent('popup');
  await frame.getByRole('button', { name: `Connect ${network}` }).click();
  const popup = await popupPromise;
  await popup.getByRole('button', { name: 'Allow' }).click();
}

test('the README shows readme-example.tsx verbatim', () => {
  const readme = readFileSync(here('../../../README.md'), 'utf8');
  const block = /```tsx\n([\s\S]*?)```/.exec(readme)?.[1];
  expect(block).toBe(readFileSync(here('./readme-example.tsx'), 'utf8'));
});

test('useSocialLink() and <social-link-button> in a React 19 app link accounts through the real service', async ({ page, stack }) => {
  const integrator = await startIntegrator(stack, await bundleApp());
  try {
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    page.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
    await page.goto(integrator.origin);
    await expect(page.getByRole('status')).toHaveText('idle');

    // The hook: opens the hosted page in a frame; the state follows the link.
    await page.getByRole('button', { name: 'Connect accounts' }).click();
    const frame = page.frameLocator('iframe');
    await expect(frame.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('open');
    await allowInConsentPopup(page, frame, 'LinkedIn');
    await expect(page.getByRole('status')).toHaveText('Linked: linkedin');
    await expect(page.locator('iframe')).toHaveCount(0);

    // A new open() starts afresh; closing the dialog without linking reports `cancelled`.
    await page.getByRole('button', { name: 'Connect accounts' }).click();
    await expect(page.frameLocator('iframe').getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('open');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('status')).toHaveText('cancelled');

    // The element: React 19 set its getUrl property (a function) and added the onsocial-link-success listener.
    await page.getByRole('button', { name: 'Connect social accounts' }).click();
    await allowInConsentPopup(page, page.frameLocator('iframe'), 'Facebook');
    await expect.poll(() => logged).toContain('linked facebook');
    expect(logged.filter((line) => line.startsWith('pageerror'))).toEqual([]);

    const user = await stack.api('GET', '/user');
    expect(user.json.activeSocialAccounts).toEqual(expect.arrayContaining(['linkedin', 'facebook']));
  } finally {
    await integrator.close();
  }
});
