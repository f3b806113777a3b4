/**
 * Axe in every screen of the hosted page, each reached as a user reaches it: loading (the locale's texts held
 * back), networks, the credentials step, the bot step, expired, no longer valid, could not load, not embeddable
 * (frame without max-pack) and opened from another origin. Each test first checks that the screen it names is the
 * one showing, so a screen that stops appearing fails here instead of passing axe on another.
 */
import type { Frame, Page } from '@playwright/test';
import { en } from '../../../src/i18n/hosted/en.js';
import { checkNoTokenLeakedAfterAll, expect, test } from '../support/fixtures.js';
import { axeViolations } from '../support/axe.js';
import { createLink, openInFrame } from './harness.js';

checkNoTokenLeakedAfterAll();

/** The hosted page inside the integrator's frame, for axe (which runs in a frame, not through a locator). */
function hostedFrame(page: Page, serviceUrl: string): Frame {
  const frame = page.frames().find((f) => f.url().startsWith(`${serviceUrl}/link`));
  if (!frame) throw new Error('no hosted page frame');
  return frame;
}

test('loading: while the session locale is still loading, the page says Loading…', async ({ page, harness: h }) => {
  const link = await createLink(h, { locale: 'fr' });
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/link\/assets\/fr-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(link.url);
  await expect(page.getByRole('status')).toHaveText(en.loading);
  expect(await axeViolations(page)).toEqual([]);
  release();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('networks, credentials step and bot step', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky', 'telegram', 'reddit'] });
  await page.goto(link.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.heading);
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  await expect(page.getByRole('form', { name: en.credentialsTitle.replace('{network}', 'Bluesky') })).toBeVisible();
  await expect(page.locator('input[name=handle]')).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: en.cancel }).click();

  await page.getByRole('button', { name: 'Connect Telegram' }).click();
  await expect(page.getByRole('button', { name: en.simulateBot })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('expired (in a frame) and no longer valid (an unknown token)', async ({ page, harness: h }) => {
  const link = await createLink(h);
  await page.clock.install();
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.heading);
  await page.clock.fastForward('06:00');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.expiredTitle);
  expect(await axeViolations(hostedFrame(page, h.svc.url))).toEqual([]);

  await page.goto(`${h.svc.url}/link?session=${'C'.repeat(43)}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.invalidTitle);
  expect(await axeViolations(page)).toEqual([]);
});

test('could not load: the session read fails on a reload (no inline view), the page offers a reload', async ({ page, harness: h }) => {
  const link = await createLink(h);
  await page.goto(link.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.heading);
  await page.route('**/api/link/session', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.loadFailed);
  await expect(page.getByRole('button', { name: en.reload })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
});

test('not embeddable: framed without the max-pack add-on', async ({ page, harness: h }) => {
  await h.svc.sql('UPDATE accounts SET max_pack = 0 WHERE id = ?', [h.svc.account.id]);
  try {
    const link = await createLink(h);
    const frame = await openInFrame(page, h.integrator, link.url);
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.embedTitle);
    expect(await axeViolations(hostedFrame(page, h.svc.url))).toEqual([]);
  } finally {
    await h.svc.sql('UPDATE accounts SET max_pack = 1 WHERE id = ?', [h.svc.account.id]);
  }
});

test('opened from another origin: the notice in Arabic (right to left), from the browser language', async ({ browser, harness: h }) => {
  const context = await browser.newContext({ locale: 'ar-EG' });
  const page = await context.newPage();
  try {
    const link = await createLink(h);
    const url = new URL(link.url);
    url.searchParams.set('from', h.thirdOrigin.origin);
    await page.goto(url.href);
    const ar = (await import('../../../src/i18n/hosted/ar.js')).default;
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar.mismatchTitle);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('button')).toHaveCount(0);
    expect(await axeViolations(page)).toEqual([]);
  } finally {
    await context.close();
  }
});
