/**
 * The hosted page as a product: its language (the session's locale, else the browser's), `lang` and `dir`, the
 * integrator's branding and brand colour, network marks and sandbox notes, the expired screen's way back, axe in
 * every locale, and visual regression screenshots (light, dark, 375 px, right to left) kept in docs/screenshots:
 * compared with a small tolerance, rewritten with `SCREENSHOTS=1`.
 */
import type { Browser, Page } from '@playwright/test';
import { LOCALES, type Locale } from '../../../src/i18n/locales.js';
import { en } from '../../../src/i18n/hosted/en.js';
import { checkNoTokenLeakedAfterAll, expect, test } from '../support/fixtures.js';
import { axeViolations } from '../support/axe.js';
import { createLink, linkEvents, networkRow, openInFrame, openInPopup, received, type Harness } from './harness.js';

checkNoTokenLeakedAfterAll();

const catalogues: Record<Locale, Record<string, unknown>> = {
  en,
  es: (await import('../../../src/i18n/hosted/es.js')).default,
  fr: (await import('../../../src/i18n/hosted/fr.js')).default,
  de: (await import('../../../src/i18n/hosted/de.js')).default,
  'pt-BR': (await import('../../../src/i18n/hosted/pt-BR.js')).default,
  ja: (await import('../../../src/i18n/hosted/ja.js')).default,
  ar: (await import('../../../src/i18n/hosted/ar.js')).default,
};
const text = (locale: Locale, key: keyof typeof en, values: Record<string, string> = {}) =>
  (catalogues[locale][key] as string).replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');

const ACME = { name: 'Acme Scheduler', color: '#0f766e' };

async function setBranding(h: Harness, branding: object | null) {
  await h.svc.sql('UPDATE accounts SET branding = ? WHERE id = ?', [branding ? JSON.stringify(branding) : null, h.svc.account.id]);
}

async function openPage(browser: Browser, url: string, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

for (const locale of LOCALES) {
  test(`locale ${locale} from the session: lang, dir, translated texts, no axe violations`, async ({ page, harness: h }) => {
    await setBranding(h, null);
    const link = await createLink(h, { locale, allowedSocial: ['twitter', 'bluesky'] });
    await page.goto(link.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'heading'));
    await expect(page.locator('html')).toHaveAttribute('lang', locale);
    await expect(page.locator('html')).toHaveAttribute('dir', locale === 'ar' ? 'rtl' : 'ltr');
    await expect(networkRow(page, 'twitter').getByRole('button')).toHaveText(text(locale, 'connect'));
    await expect(networkRow(page, 'twitter')).toContainText(text(locale, 'sandboxNote', { network: 'X (Twitter)' }));
    expect(await axeViolations(page)).toEqual([]);
  });
}

for (const [browserLocale, expected] of [
  ['de-DE', 'de'],
  ['pt-BR', 'pt-BR'],
  ['fr-CA', 'fr'],
  ['ar-EG', 'ar'],
  ['zh-CN', 'en'],
] as const) {
  test(`without a session locale, browser language ${browserLocale} gives ${expected}`, async ({ browser, harness: h }) => {
    const link = await createLink(h);
    const page = await openPage(browser, link.url, { locale: browserLocale });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(expected, 'heading'));
    await expect(page.locator('html')).toHaveAttribute('lang', expected);
    await page.context().close();
  });
}

test('the session locale wins over the browser language', async ({ browser, harness: h }) => {
  const link = await createLink(h, { locale: 'ja' });
  const page = await openPage(browser, link.url, { locale: 'de-DE' });
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('ja', 'heading'));
  await page.context().close();
});

test('branding: the app name, what it may do, its colour on the buttons, its logo origin alone allowed', async ({ page, harness: h }) => {
  await setBranding(h, { ...ACME, logoUrl: 'https://cdn.acme.example/logo.png' });
  const link = await createLink(h, { allowedSocial: ['linkedin'] });
  const response = await page.goto(link.url);
  const csp = response!.headers()['content-security-policy']!;
  expect(csp).toMatch(/img-src 'self' data: https:\/\/cdn\.acme\.example(;|$)/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect your social accounts to Acme Scheduler');
  await expect(page.getByText('Acme Scheduler will be able to publish on your behalf on the accounts you connect.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Acme Scheduler logo' })).toHaveAttribute('src', 'https://cdn.acme.example/logo.png');
  const connect = page.getByRole('button', { name: 'Connect LinkedIn' });
  await expect(connect).toHaveCSS('background-color', 'rgb(15, 118, 110)');
  await expect(connect).toHaveCSS('color', 'rgb(255, 255, 255)');
  await setBranding(h, null);
});

test('a light brand colour gets dark text on its buttons', async ({ page, harness: h }) => {
  await setBranding(h, { color: '#ffd400' });
  const link = await createLink(h, { allowedSocial: ['linkedin'] });
  await page.goto(link.url);
  await expect(page.getByRole('button', { name: 'Connect LinkedIn' })).toHaveCSS('color', 'rgb(17, 17, 17)');
  await setBranding(h, null);
});

test('network marks come from the page’s own sprite, in its HTML', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['youtube', 'telegram'] });
  const html = await (await page.request.get(link.url)).text();
  // In the HTML itself: the first paint draws the marks without another request.
  expect(html).toContain('<symbol id="network-telegram"');
  await page.goto(link.url);
  const href = await networkRow(page, 'youtube').locator('svg.logo use').getAttribute('href');
  expect(href).toBe('#network-youtube');
  // The mark is drawn: the reference finds its symbol (an unresolved <use> has an empty box).
  const drawn = networkRow(page, 'youtube').locator('svg.logo use');
  expect(await drawn.evaluate((use) => (use as SVGGraphicsElement).getBBox().width)).toBeGreaterThan(0);
  // The sprite itself takes no room on the page.
  expect(await page.locator('svg.network-marks').evaluate((svg) => getComputedStyle(svg).position)).toBe('absolute');
});

test('expiry in direct mode: "this link has expired" with the way back to the redirect', async ({ page, harness: h }) => {
  const redirect = `${h.integrator.origin}/linked`;
  const link = await createLink(h, { redirect, locale: 'es' });
  await page.clock.install();
  await page.goto(link.url);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('es', 'heading'));
  await page.clock.fastForward('06:00');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text('es', 'expiredTitle'));
  await expect(page.getByText(text('es', 'expiredBody'))).toBeVisible();
  await expect(page.getByRole('link', { name: text('es', 'backToApp') })).toHaveAttribute('href', redirect);
  expect(await axeViolations(page)).toEqual([]);
});

test('expiry in frame mode: the expired screen, and connect:cancelled expired to the integrator', async ({ page, harness: h }) => {
  const link = await createLink(h);
  await page.clock.install();
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.heading);
  await page.clock.fastForward('06:00');
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.expiredTitle);
  await expect.poll(async () => (await linkEvents(page)).map((m) => m.event === 'connect:cancelled' && m.reason)).toContain('expired');
});

test('disconnect asks first: Keep leaves the account linked and returns focus', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky'] });
  await page.goto(link.url);
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  await page.getByLabel(en.handle).fill('someone.bsky.social');
  await page.getByLabel(en.appPassword).fill('sandbox-app-password');
  await page.getByRole('button', { name: en.connect, exact: true }).click();
  await expect(networkRow(page, 'bluesky')).toContainText(en.connected);
  // The result takes the focus after a connection.
  await expect(page.locator('.message.success')).toBeFocused();
  await expect(page.locator('.message.success')).toHaveText(text('en', 'linked', { network: 'Bluesky' }));
  await page.getByRole('button', { name: 'Disconnect Bluesky' }).click();
  const group = page.getByRole('group', { name: text('en', 'disconnectConfirm', { network: 'Bluesky' }) });
  await expect(group.getByRole('button', { name: en.disconnect })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await group.getByRole('button', { name: en.keepConnected }).click();
  await expect(page.getByRole('button', { name: 'Disconnect Bluesky' })).toBeFocused();
  await expect(networkRow(page, 'bluesky')).toContainText(en.connected);
});

// Visual regression: the same session in four looks. The page's clock is fixed so the countdown does not move.
const SHOTS = [
  { name: 'hosted-light', options: { viewport: { width: 720, height: 900 } } },
  { name: 'hosted-dark', options: { viewport: { width: 720, height: 900 }, colorScheme: 'dark' as const } },
  { name: 'hosted-375', options: { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true } },
  { name: 'hosted-rtl', options: { viewport: { width: 720, height: 900 } }, locale: 'ar' as const },
];

for (const shot of SHOTS) {
  test(`screenshot ${shot.name} matches docs/screenshots/${shot.name}.png`, async ({ browser, harness: h }) => {
    await setBranding(h, ACME);
    // A profile of its own, with bluesky linked through the page's API, so the picture never depends on other tests.
    const profile = await h.svc.client.createProfile('Dana Rivera');
    const link = await h.svc.client.createLinkSession(
      { origin: h.integrator.origin, allowedSocial: ['twitter', 'linkedin', 'youtube', 'bluesky', 'telegram'], ...(shot.locale && { locale: shot.locale }) },
      { profileKey: profile.profileKey },
    );
    const token = new URL(link.url).searchParams.get('session')!;
    const linked = await fetch(`${h.svc.url}/api/link/connect/bluesky`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ handle: 'dana.bsky.social', appPassword: 'sandbox-app-password' }),
    });
    expect(linked.status).toBe(200);
    const context = await browser.newContext({ locale: 'en-US', ...shot.options });
    const page = await context.newPage();
    await page.clock.setFixedTime(new Date('2026-11-22T12:00:00Z'));
    await page.goto(link.url);
    await expect(networkRow(page, 'bluesky').getByRole('button')).toBeVisible();
    await expect(page).toHaveScreenshot(`${shot.name}.png`, { fullPage: true, maxDiffPixelRatio: 0.01, animations: 'disabled' });
    await context.close();
    await setBranding(h, null);
  });
}

test('codes 501-503 never reach the integrator as connect:error: the user sees the reason, the page a cancel on close', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['pinterest'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await page.route('**/api/link/connect/pinterest', (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ status: 'error', action: 'link session', code: 503, message: 'This network cannot be connected right now.', details: null }),
    }),
  );
  await frame.getByRole('button', { name: 'Connect Pinterest' }).click();
  await expect(frame.locator('.message.error')).toContainText('This network cannot be connected right now.');
  await frame.getByRole('button', { name: en.done }).click();
  await expect.poll(async () => (await linkEvents(page)).map((m) => m.event)).toContain('connect:cancelled');
  expect((await linkEvents(page)).filter((m) => m.event === 'connect:error')).toEqual([]);
});

test('telegram in the sandbox: "Simulate the bot" completes it from the page, the integrator hears connect:success', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['telegram'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await frame.getByRole('button', { name: 'Connect Telegram' }).click();
  await frame.getByRole('button', { name: en.simulateBot }).click();
  await expect(networkRow(frame, 'telegram')).toContainText(en.connected);
  await expect.poll(async () => (await linkEvents(page)).filter((m) => m.event === 'connect:success').map((m) => m.platform)).toEqual(['telegram']);
});

test('without the max-pack add-on the page refuses to run in a frame (coded connect:error); a popup opened without the widget (direct mode) still works', async ({ page, harness: h }) => {
  await h.svc.sql('UPDATE accounts SET max_pack = 0 WHERE id = ?', [h.svc.account.id]);
  try {
    const framed = await createLink(h, { allowedSocial: ['reddit'] });
    const frame = await openInFrame(page, h.integrator, framed.url);
    await expect(frame.getByRole('heading', { level: 1 })).toHaveText(en.embedTitle);
    await expect(frame.getByRole('button', { name: 'Connect Reddit' })).toHaveCount(0);
    await expect
      .poll(async () => (await linkEvents(page)).filter((m) => m.event === 'connect:error'))
      .toEqual([expect.objectContaining({ event: 'connect:error', code: 104, reason: 'max_pack_required' })]);

    const popupLink = await createLink(h, { allowedSocial: ['reddit'] });
    const linkPage = await openInPopup(page, h.integrator, popupLink.url);
    await expect(linkPage.getByRole('button', { name: 'Connect Reddit' })).toBeVisible();
  } finally {
    await h.svc.sql('UPDATE accounts SET max_pack = 1 WHERE id = ?', [h.svc.account.id]);
  }
});

test('frame mode: the page reports its content height (connect:resize) so the widget can fit its dialog', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['twitter'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(networkRow(frame, 'twitter')).toBeVisible();
  const heights = async () =>
    (await received(page)).filter((m) => m.data?.event === 'connect:resize').map((m) => m.data.height as number);
  await expect.poll(async () => (await heights()).length).toBeGreaterThan(0);
  const mainHeight = await frame.locator('main').evaluate((main) => Math.ceil(main.getBoundingClientRect().height));
  await expect.poll(async () => (await heights()).at(-1)).toBe(mainHeight);
});
