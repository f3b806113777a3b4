/**
 * The first screen comes in the page's HTML: the service renders it from the page's own templates, so it shows with
 * the page's script held back (or off), styled by the inlined stylesheet, and the script's own render, which
 * replaces it, changes nothing a user could see or reach: the same elements, attributes and texts in the same
 * order (so the same focus order). Checked for every screen the service renders: the networks (in a window and in
 * a frame), not embeddable, no longer valid, and opened from another origin. No CSP complaint, no token in the HTML.
 * Can fail: a screen the service renders differently from the element, or not at all, differs from the script's.
 */
import type { BrowserContext, Frame, Page, Route } from '@playwright/test';
import { START_FALLBACK_MS } from '../../../hosted/src/after-first-paint.js';
import { en } from '../../../src/i18n/hosted/en.js';
import { INLINE_SESSION_VIEW_ID } from '@social-link-kit/protocol/constants.js';
import { checkNoTokenLeakedAfterAll, expect, test } from '../support/fixtures.js';
import { createLink, openInPopup, type Harness } from './harness.js';

checkNoTokenLeakedAfterAll();

const PAGE_SCRIPT = /\/link\/assets\/index-[\w-]+\.js$/;
/** The page itself (hosted/src/page.ts), which the entry above imports after the first paint. */
const PAGE_MODULE = /\/link\/assets\/page-[\w-]+\.js$/;

/**
 * What a user can see or reach in `<main>`: every element with its attributes (sorted) and every text (spaces
 * collapsed, digits as #: the countdown may tick between two reads); comments left out.
 */
function visibleTree(): string {
  const walk = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return (node.textContent ?? '').replace(/\s+/g, ' ').trim().replace(/\d/g, '#');
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const element = node as Element;
    const attributes = [...element.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(' ');
    const children = [...element.childNodes].map(walk).filter((text) => text !== '').join('');
    return `<${element.localName}${attributes ? ` ${attributes}` : ''}>${children}</${element.localName}>`;
  };
  return walk(document.getElementById('app')!);
}

/** Holds the page script back until `release`, so the test sees the HTML's own first screen. */
async function holdPageScript(page: Page) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(PAGE_SCRIPT, async (route: Route) => {
    await held;
    await route.continue();
  });
  return () => release();
}

function watchCsp(page: Page): string[] {
  const complaints: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) complaints.push(message.text());
  });
  return complaints;
}

/** The hosted page's frame inside the integrator page. */
async function hostedFrame(page: Page, h: Harness): Promise<Frame> {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(`${h.svc.url}/link`))).toBe(true);
  return page.frames().find((f) => f.url().startsWith(`${h.svc.url}/link`))!;
}

/**
 * Loads `url` (into a frame of the integrator page when `framed`) with the script held back, checks `heading` is
 * there from the HTML alone, then lets the script run and checks its render is the same tree.
 */
async function sameBeforeAndAfterScript(page: Page, h: Harness, url: string, heading: string, framed = false) {
  const csp = watchCsp(page);
  const release = await holdPageScript(page);
  // 'commit': the load event waits for the held script.
  if (framed) await page.goto(`${h.integrator.origin}/?mode=frame&link=${encodeURIComponent(url)}`, { waitUntil: 'commit' });
  else await page.goto(url, { waitUntil: 'commit' });
  const frame = framed ? await hostedFrame(page, h) : page.mainFrame();
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText(heading);
  // The script has not run: the inline data is still there, unread.
  await expect(frame.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(1);
  const fromHtml = await frame.evaluate(visibleTree);

  release();
  // Read and removed by the script's start-up, which renders in the same task.
  await expect(frame.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  expect(await frame.evaluate(visibleTree)).toBe(fromHtml);
  expect(csp).toEqual([]);
  return { frame, fromHtml };
}

test('networks: in the HTML, styled, and the same after the script took over', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky', 'telegram', 'reddit'] });
  const html = await (await page.request.get(link.url)).text();
  expect(html).not.toContain(new URL(link.url).searchParams.get('session')!);
  expect(html).toContain(`<h1>${en.heading}</h1>`);
  // The stylesheet is inline (no request before the first paint), allowed by its hash.
  expect(html).not.toMatch(/<link rel="stylesheet"/);

  const { fromHtml } = await sameBeforeAndAfterScript(page, h, link.url, en.heading);
  for (const name of ['Connect Bluesky', 'Connect Telegram', 'Connect Reddit']) expect(fromHtml).toContain(`aria-label="${name}"`);
  // The buttons act once the script has run.
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  await expect(page.getByRole('form', { name: en.credentialsTitle.replace('{network}', 'Bluesky') })).toBeVisible();
});

test('networks in a frame, the same after the script took over', async ({ page, harness: h }) => {
  const link = await createLink(h);
  await sameBeforeAndAfterScript(page, h, link.url, en.heading, true);
});

test('with the script off: the first screen shows, styled by the inlined stylesheet', async ({ browser, harness: h }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    const link = await createLink(h);
    await page.goto(link.url);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.heading);
    // hosted.css: `main { max-width: 34rem }`, 544 px at the default 16 px.
    expect(await page.locator('main').evaluate((main) => getComputedStyle(main).maxWidth)).toBe('544px');
  } finally {
    await context.close();
  }
});

test('not embeddable: framed without the max-pack add-on', async ({ page, harness: h }) => {
  await h.svc.sql('UPDATE accounts SET max_pack = 0 WHERE id = ?', [h.svc.account.id]);
  try {
    const link = await createLink(h);
    await sameBeforeAndAfterScript(page, h, link.url, en.embedTitle, true);
  } finally {
    await h.svc.sql('UPDATE accounts SET max_pack = 1 WHERE id = ?', [h.svc.account.id]);
  }
});

// Not in a frame: a dead token's page is sent with frame-ancestors 'none', so no frame ever shows it.
test('no longer valid: an unknown token', async ({ page, harness: h }) => {
  await sameBeforeAndAfterScript(page, h, `${h.svc.url}/link?session=${'C'.repeat(43)}`, en.invalidTitle);
});

test('opened from another origin', async ({ page, harness: h }) => {
  const link = await createLink(h);
  const url = new URL(link.url);
  url.searchParams.set('from', h.thirdOrigin.origin);
  await sameBeforeAndAfterScript(page, h, url.href, en.mismatchTitle);
});

/**
 * Holds the page script's start (after-first-paint.ts: two animation frames, or its fallback timer) until the
 * test calls `releaseStart()`, so the test acts on the server's first screen with the script loaded but not yet
 * in charge. Playwright's own checks run in their own world and keep their animation frames.
 */
async function holdStart(target: Page | BrowserContext) {
  await target.addInitScript((fallbackMs) => {
    const held: (() => void)[] = [];
    let released = false;
    const animationFrame = window.requestAnimationFrame.bind(window);
    const timeout = window.setTimeout.bind(window);
    window.requestAnimationFrame = (callback) => (released ? animationFrame(callback) : (held.push(() => animationFrame(callback)), 0));
    window.setTimeout = ((handler: () => void, ms?: number) =>
      !released && ms === fallbackMs ? (held.push(() => timeout(handler, 0)), 0) : timeout(handler, ms)) as typeof window.setTimeout;
    (window as unknown as { releaseStart: () => void }).releaseStart = () => {
      released = true;
      for (const run of held.splice(0)) run();
    };
  }, START_FALLBACK_MS);
  return (page: Page) => page.evaluate(() => (window as unknown as { releaseStart: () => void }).releaseStart());
}

test('a click on the first screen before the script took it over acts once it has', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky', 'telegram', 'reddit'] });
  const release = await holdStart(page);
  await page.goto(link.url);
  const form = page.getByRole('form', { name: en.credentialsTitle.replace('{network}', 'Bluesky') });
  await page.getByRole('button', { name: 'Connect Bluesky' }).click();
  // Not taken over yet: the inline data is unread and the click did nothing.
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(1);
  await expect(form).toHaveCount(0);

  await release(page);
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  await expect(form).toBeVisible();
});

test('the page module is fetched with the HTML but runs only after the first paint', async ({ page, harness: h }) => {
  const link = await createLink(h);
  const release = await holdStart(page);
  // The HTML's modulepreload fetches it while the start is held; without that link nothing would ask for it yet.
  const fetched = page.waitForResponse(PAGE_MODULE);
  await page.goto(link.url);
  expect((await fetched).ok()).toBe(true);
  // Nothing of it has run: Lit, which notes its version in a global as it is evaluated, has not; the inline data
  // is unread.
  const litEvaluated = () => page.evaluate(() => 'litHtmlVersions' in window);
  expect(await litEvaluated()).toBe(false);
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(1);

  await release(page);
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  expect(await litEvaluated()).toBe(true);
});

test('the keyboard focus on the first screen stays where it was when the script takes over', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky', 'telegram', 'reddit'] });
  const release = await holdStart(page);
  await page.goto(link.url);
  await page.getByRole('button', { name: 'Connect Telegram' }).focus();
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(1);

  await release(page);
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Connect Telegram' })).toBeFocused();
  // The script's own button (in a defined element), not the server's copy.
  expect(await page.evaluate(() => document.activeElement?.closest('slk-networks-screen') instanceof customElements.get('slk-networks-screen')!)).toBe(true);
});

test('a click is replayed only on a button that says the same: a popup is told from a tab only by the script', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['bluesky'], redirect: `${h.integrator.origin}/done` });
  const release = await holdStart(context);
  const popup = await openInPopup(page, h.integrator, link.url);
  // The server rendered it as a tab with a redirect: its Done button says "Return to the app".
  await popup.getByRole('button', { name: en.backToApp }).click();
  await release(popup);
  await expect(popup.getByRole('button', { name: en.done })).toBeVisible();
  // The replay (a task after the render) has had its turn: the popup's Done was not clicked, the popup stays.
  await popup.evaluate(() => new Promise((resolve) => window.setTimeout(resolve, 0)));
  expect(popup.isClosed()).toBe(false);
  await expect(popup.getByRole('button', { name: en.done })).toBeVisible();
});

test('storage blocked: the credential, stored after the first render, goes to the address fragment and a reload works', async ({ page, harness: h }) => {
  // As in a third-party frame with storage blocked: any use of sessionStorage throws.
  await page.addInitScript(() =>
    Object.defineProperty(window, 'sessionStorage', {
      get() {
        throw new DOMException('The storage is blocked.', 'SecurityError');
      },
    }),
  );
  const link = await createLink(h, { allowedSocial: ['bluesky'] });
  const token = new URL(link.url).searchParams.get('session')!;
  await page.goto(link.url);
  await expect.poll(() => new URL(page.url()).hash).toBe(`#link=${encodeURIComponent(token)}`);
  expect(new URL(page.url()).searchParams.get('session')).toBeNull();

  await page.reload();
  await expect(page.getByRole('button', { name: 'Connect Bluesky' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.heading);
});
