/**
 * The hosted page's first screen comes from the session view inlined in its HTML (no call to the session API);
 * a reload, which has only the session id in the address, asks the API with the stored token. The inlined JSON
 * never carries the token, runs under the page's CSP without a violation, and cannot break out of its element.
 */
import type { Page } from '@playwright/test';
import { INLINE_SESSION_VIEW_ID } from '@social-link-kit/protocol/hosted-api.js';
import { expect, test } from '../support/fixtures.js';

const HEADING = 'Connect your social accounts';

/** Counts the page's calls to the session API and collects CSP complaints from the console. */
function watch(page: Page) {
  const seen = { sessionReads: 0, cspErrors: [] as string[] };
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/link/session') seen.sessionReads += 1;
  });
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.cspErrors.push(message.text());
  });
  return seen;
}

test('first load renders the inlined view without the session API; a reload reads it from the API', async ({ page, stack, integrator }) => {
  const { json: session } = await stack.api('POST', '/profiles/link-sessions', { origin: integrator.origin, allowedSocial: ['facebook', 'reddit'] });
  const token = new URL(session.url).searchParams.get('session')!;
  const seen = watch(page);

  const response = await page.goto(session.url);
  const html = await response!.text();
  expect(html).toContain(`<script type="application/json" id="${INLINE_SESSION_VIEW_ID}">`);
  expect(html).not.toContain(token);
  await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
  await expect(page.locator('.network')).toHaveCount(2);
  // Read once and removed, so nothing later mistakes it for fresh data; gone means the page script has started
  // (the heading above is already in the HTML), so the count below is the script's.
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  expect(seen.sessionReads).toBe(0);

  const reloaded = await page.reload();
  expect(await reloaded!.text()).not.toContain(INLINE_SESSION_VIEW_ID);
  await expect(page.getByRole('heading', { name: HEADING })).toBeVisible();
  await expect(page.locator('.network')).toHaveCount(2);
  expect(seen.sessionReads).toBe(1);
  expect(seen.cspErrors).toEqual([]);
});

test('a session id alone gets no inlined view; a revoked token gets only the "invalid" notice, and its screen', async ({ page, stack, integrator }) => {
  const { json: session } = await stack.api('POST', '/profiles/link-sessions', { origin: integrator.origin });
  const bySessionId = await page.request.get(`${stack.serviceUrl}/link?sid=${session.sessionId}`);
  expect(await bySessionId.text()).not.toContain(INLINE_SESSION_VIEW_ID);

  await stack.api('DELETE', `/profiles/link-sessions/${session.sessionId}`);
  const revoked = await (await page.request.get(session.url)).text();
  const inline = new RegExp(`<script type="application/json" id="${INLINE_SESSION_VIEW_ID}">([^<]*)</script>`).exec(revoked);
  // Nothing of the session: the same notice an unknown token gets (server/test/linking/hosted-page-identical.test.ts).
  expect(JSON.parse(inline![1]!)).toEqual({ status: 'invalid' });
  expect(revoked).not.toContain(session.sessionId);
  expect(revoked).toContain('This link is no longer valid');

  const seen = watch(page);
  await page.goto(session.url);
  await expect(page.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible();
  await expect(page.locator(`#${INLINE_SESSION_VIEW_ID}`)).toHaveCount(0);
  expect(seen.sessionReads).toBe(0);
  expect(seen.cspErrors).toEqual([]);
});

test('a profile title with markup and replacement patterns stays text inside the inlined view', async ({ page, stack, integrator }) => {
  const title = `</script><script>window.injected=1</script><!-- $& $' & Co`;
  const { json: profile } = await stack.api('POST', '/profiles', { title });
  const { json: session } = await stack.api(
    'POST',
    '/profiles/link-sessions',
    { origin: integrator.origin },
    { 'Profile-Key': profile.profileKey },
  );
  const seen = watch(page);
  const html = await (await page.goto(session.url))!.text();
  const inline = /<script type="application\/json" id="session-view">([^<]*)<\/script>/.exec(html);
  expect(inline, 'the inlined view is one element whose text has no "<"').not.toBeNull();
  expect(JSON.parse(inline![1]!).title).toBe(title);
  await expect(page.getByText(title)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
  expect(seen.sessionReads).toBe(0);
});
