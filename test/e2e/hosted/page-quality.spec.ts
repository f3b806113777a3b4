/**
 * The hosted page as a web page: response headers (CSP, frame-ancestors per session origin, no-referrer,
 * no-store), what it loads and sends, the one answer for unknown/expired/revoked links, accessibility (axe-core),
 * keyboard use, mobile layout, a polite countdown, and the returns: app-scheme origin, direct-mode redirect, Escape.
 */
import { MESSAGE_SOURCE, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import { checkNoTokenLeakedAfterAll, expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ENGLISH_TEXTS } from '../../../hosted/src/texts.js';
import { answerConsent, createLink, linkEvents, networkRow, openInFrame, startConnect, type Harness } from './harness.js';

const { t } = ENGLISH_TEXTS;

checkNoTokenLeakedAfterAll();

const tokenOf = (url: string) => new URL(url).searchParams.get('session')!;

async function pageHeaders(h: Harness, path: string) {
  const response = await fetch(`${h.svc.url}${path}`);
  await response.arrayBuffer();
  return response.headers;
}

function directives(csp: string | null): Map<string, string> {
  return new Map(
    (csp ?? '')
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(/\s+/)[0]!, part.split(/\s+/).slice(1).join(' ')]),
  );
}

test('the page is served no-store, no-referrer, with a strict CSP and frame-ancestors = the session origin only', async ({ harness: h }) => {
  const link = await createLink(h);
  const headers = await pageHeaders(h, `/link?session=${tokenOf(link.url)}&domain=dev`);
  expect(headers.get('referrer-policy')).toBe('no-referrer');
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('x-frame-options')).toBeNull();
  const csp = directives(headers.get('content-security-policy'));
  expect(csp.get('frame-ancestors')).toBe(h.integrator.origin);
  expect(csp.get('default-src')).toMatch(/^'(none|self)'$/);
  expect(csp.get('script-src')).toBe("'self'");
  for (const [name, value] of csp) {
    expect(value, name).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    if (name !== 'frame-ancestors') expect(value, `${name} names a host`).not.toMatch(/https?:\/\//);
  }
});

test('frame-ancestors: the domain parameter changes nothing; unknown tokens, app schemes and no origin get none', async ({ harness: h }) => {
  const link = await createLink(h);
  const token = tokenOf(link.url);
  const tampered = await pageHeaders(h, `/link?session=${token}&domain=${encodeURIComponent(h.thirdOrigin.origin)}`);
  expect(directives(tampered.get('content-security-policy')).get('frame-ancestors')).toBe(h.integrator.origin);
  const reload = await pageHeaders(h, `/link?sid=${link.sessionId}&domain=dev`);
  expect(directives(reload.get('content-security-policy')).get('frame-ancestors')).toBe(h.integrator.origin);

  const unknown = await pageHeaders(h, `/link?session=${'A'.repeat(43)}&domain=dev`);
  expect(directives(unknown.get('content-security-policy')).get('frame-ancestors')).toBe("'none'");
  const app = await h.svc.client.createLinkSession({ origin: 'com.example.app:/linked' });
  const appHeaders = await pageHeaders(h, `/link?session=${tokenOf(app.url)}`);
  expect(directives(appHeaders.get('content-security-policy')).get('frame-ancestors')).toBe("'none'");
  const none = await h.svc.client.createLinkSession({});
  const noneHeaders = await pageHeaders(h, `/link?session=${tokenOf(none.url)}`);
  expect(directives(noneHeaders.get('content-security-policy')).get('frame-ancestors')).toBe("'none'");
  const bare = await pageHeaders(h, '/link');
  expect(directives(bare.get('content-security-policy')).get('frame-ancestors')).toBe("'none'");
});

test('direct mode: only same-origin requests, none with a Referer, token out of the address bar at once', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['facebook'] });
  const requests: { url: string; referer: string | undefined }[] = [];
  context.on('request', (request) => requests.push({ url: request.url(), referer: request.headers()['referer'] }));
  await page.goto(link.url);
  await expect(networkRow(page, 'facebook')).toContainText(t('notConnected'));
  // The rows are in the page's HTML; the script takes the token out of the address as soon as it runs.
  await expect.poll(() => page.url()).not.toContain(tokenOf(link.url));
  await answerConsent(await startConnect(context, page, 'Facebook'), 'Allow');
  await expect(networkRow(page, 'facebook')).toContainText(t('connected'));

  const pageRequests = requests.filter((r) => !r.url.startsWith('about:'));
  // Chromium reports a withheld Referer as an empty value.
  expect(pageRequests.filter((r) => r.referer)).toEqual([]);
  // The hosted page itself loads nothing from elsewhere; only the network's window leaves (to the sandbox server).
  const hostedPageRequests = pageRequests.filter((r) => !/\/sandbox\/|\/connect\/|\/authorize|\/token|\/userinfo/.test(r.url));
  for (const request of hostedPageRequests) expect(request.url.startsWith(h.svc.url), request.url).toBe(true);
});

test('unknown, expired and revoked links all show the same clear page, with no detail', async ({ page, harness: h }) => {
  const texts: string[] = [];
  await page.goto(`${h.svc.url}/link?session=${'B'.repeat(43)}&domain=dev`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  texts.push(await page.locator('main').innerText());

  const revoked = await createLink(h);
  await h.svc.client.revokeLinkSession(revoked.sessionId);
  await page.goto(revoked.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  texts.push(await page.locator('main').innerText());

  const expired = await createLink(h, { expiresIn: 1 });
  h.svc.clock.advance(61_000);
  await page.goto(expired.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  texts.push(await page.locator('main').innerText());

  expect(texts[0]).toContain(t('invalidTitle'));
  expect(new Set(texts).size).toBe(1);
  expect(texts[0]).not.toMatch(/revoked|token|not found|unknown/i);
});

async function axeViolations(page: Page) {
  const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  // evaluate() runs outside the page's CSP, which (rightly) refuses injected scripts.
  await page.evaluate(readFileSync(axePath, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
  });
}

test('accessibility: no axe-core violations on the linking page and on the invalid-link page', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['facebook', 'bluesky', 'telegram'] });
  await page.goto(link.url);
  await expect(networkRow(page, 'facebook')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.goto(`${h.svc.url}/link?session=${'C'.repeat(43)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('keyboard: Tab reaches Connect, Enter opens the network window', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['linkedin'] });
  await page.goto(link.url);
  await expect(networkRow(page, 'linkedin')).toBeVisible();
  const connect = page.getByRole('button', { name: 'Connect LinkedIn', exact: true });
  for (let i = 0; i < 10 && !(await connect.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(connect).toBeFocused();
  const [oauthWindow] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  await oauthWindow.waitForLoadState();
  await expect(oauthWindow.getByText(/Sandbox network/)).toBeVisible();
  await oauthWindow.close();
});

test('mobile layout: no horizontal scrolling at 320 px, touch-sized buttons', async ({ browser, harness: h }) => {
  const context = await browser.newContext({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const link = await createLink(h);
  await page.goto(link.url);
  await expect(networkRow(page, 'facebook')).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const heights = await page.locator('li[data-platform] button').evaluateAll((buttons) => buttons.map((b) => b.getBoundingClientRect().height));
  expect(heights.length).toBeGreaterThan(0);
  for (const height of heights) expect(height).toBeGreaterThanOrEqual(40);
  await context.close();
});

test('the countdown is announced politely, not every second', async ({ page, harness: h }) => {
  const link = await createLink(h, { expiresIn: 30 });
  await page.goto(link.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const live = page.locator('[aria-live="polite"]');
  await expect(live.first()).toBeAttached();
  const seen = new Set<string>();
  for (let i = 0; i < 6; i++) {
    seen.add((await live.allInnerTexts()).join('|'));
    await page.waitForTimeout(500);
  }
  expect(seen.size).toBeLessThanOrEqual(2);
  // The visible countdown itself does move.
  await expect(page.locator('main')).toContainText(/\d+:\d\d|\d+ h/);
});

test('a native app origin gets a redirect to its scheme with the session id and outcome, never a message', async ({ page, context, harness: h }) => {
  const link = await h.svc.client.createLinkSession({ origin: 'com.example.app:/linked', allowedSocial: ['youtube'] });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  const navigations: string[] = [];
  page.on('request', (request) => navigations.push(request.url()));
  await page.goto(link.url);
  await expect(networkRow(page, 'youtube')).toBeVisible();
  await answerConsent(await startConnect(context, page, 'YouTube'), 'Allow');
  await expect
    .poll(() => [...consoleLines, ...navigations, page.url()].find((line) => line.includes('com.example.app:/linked')) ?? '', { timeout: 8000 })
    .toMatch(/com\.example\.app:\/linked\?/);
  const target = [...consoleLines, ...navigations, page.url()].find((line) => line.includes('com.example.app:/linked'))!;
  const url = new URL(/com\.example\.app:\/linked\?[^'"\s]*/.exec(target)![0]);
  expect(url.searchParams.get('sessionId')).toBe(link.sessionId);
  expect(url.searchParams.get('event')).toBe('connect:success');
  expect(url.searchParams.get('platform')).toBe('youtube');
  expect(target).not.toContain(tokenOf(link.url));
});

test('direct mode returns to redirect when given', async ({ page, context, harness: h }) => {
  const redirect = `${h.integrator.origin}/?mode=returned`;
  const link = await h.svc.client.createLinkSession({ redirect, allowedSocial: ['pinterest'] });
  await page.goto(link.url);
  await answerConsent(await startConnect(context, page, 'Pinterest'), 'Allow');
  await expect(networkRow(page, 'pinterest')).toContainText(t('connected'));
  const back = page.getByRole('button', { name: t('backToApp') }).or(page.getByRole('link', { name: t('backToApp') }));
  if (!page.url().startsWith(h.integrator.origin)) await back.click();
  await page.waitForURL((url) => url.href.startsWith(redirect));
  expect(page.url()).not.toContain(tokenOf(link.url));
});

test('Escape inside the framed page posts connect:cancelled with reason escape', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['threads'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(networkRow(frame, 'threads')).toBeVisible();
  await frame.getByRole('button', { name: 'Connect Threads', exact: true }).focus();
  await page.keyboard.press('Escape');
  await expect
    .poll(async () => (await linkEvents(page)).filter((m) => m.event !== 'connect:ready'))
    .toEqual([{ source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId: link.sessionId, event: 'connect:cancelled', reason: 'escape' }]);
});

test('a tampered domain parameter changes neither where messages go nor who may frame the page', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['facebook'] });
  const tampered = new URL(link.url);
  tampered.searchParams.set('domain', h.thirdOrigin.origin);
  const frame = await openInFrame(page, h.integrator, tampered.href);
  await expect(networkRow(frame, 'facebook')).toBeVisible();
  await expect.poll(() => linkEvents(page)).toEqual([{ source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId: link.sessionId, event: 'connect:ready' }]);

  const third = await page.context().newPage();
  await openInFrame(third, h.thirdOrigin, tampered.href);
  await third.waitForTimeout(800);
  expect(third.frames().filter((f) => f.url().startsWith(h.svc.url))).toEqual([]);
  await third.close();
});
