import { MESSAGE_SOURCE, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import { expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
import type { PageServer } from '../hosted/fixtures/page-server.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';
import { assertLogsKeepSecrets, type Stack } from '../support/stack.js';

/** The spec's servers, as its helpers need them. */
type Servers = { stack: Stack; integrator: PageServer };

const TELEGRAM_SECRET = 'e2e-telegram-secret';

test.use({ stackOptions: { env: { TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET } } });

async function createSession({ stack, integrator }: Servers, body: Record<string, unknown> = {}) {
  const { status, json } = await stack.api('POST', '/profiles/link-sessions', { origin: integrator.origin, ...body });
  expect(status).toBe(200);
  return json as { sessionId: string; url: string; expiresAt: string };
}

type Received = { origin: string; data: { source?: string; event: string; platform?: string; reason?: string; code?: number; sessionId: string } };
// connect:resize (frame mode's content height) is layout, not an event these tests follow.
const received = async (page: Page) =>
  (await page.evaluate(() => (window as unknown as { received: Received[] }).received)).filter((m) => m.data?.event !== 'connect:resize');
const events = async (page: Page) => (await received(page)).filter((m) => m.data?.source === MESSAGE_SOURCE).map((m) => m.data.event);

/** Opens the link framed by the integrator and returns the frame. */
async function openFramed(integrator: PageServer, page: Page, url: string) {
  await page.goto(`${integrator.origin}/?mode=frame&link=${encodeURIComponent(url)}`);
  const frame = page.frameLocator('iframe');
  await expect(frame.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  return frame;
}

async function consent(page: Page, frame: ReturnType<Page['frameLocator']>, network: string, choice: string) {
  const popupPromise = page.waitForEvent('popup');
  await frame.getByRole('button', { name: `Connect ${network}` }).click();
  const popup = await popupPromise;
  await expect(popup.getByText(/Sandbox network: no real .* account is connected/)).toBeVisible();
  await clickAndWaitForClose(popup, popup.getByRole('button', { name: choice }));
}

test('frame mode: a full OAuth connection through the sandbox, reported once to the integrator origin', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator }, { allowedSocial: ['facebook', 'twitter', 'bluesky'] });
  const frame = await openFramed(integrator, page, session.url);
  await expect(frame.locator('.network')).toHaveCount(3);
  await expect(frame.getByText(/Profile: Development/)).toBeVisible();
  // The countdown itself: after its first second the screen-reader announcer carries the same text.
  await expect(frame.locator('.countdown')).toContainText(/This link works for/);

  await consent(page, frame, 'Facebook', 'Allow');
  await expect(frame.getByText('Facebook is connected.')).toBeVisible();
  await expect(frame.getByText('Connected as Sandbox Facebook account')).toBeVisible();

  await expect.poll(() => events(page)).toEqual(['connect:ready', 'connect:success']);
  const messages = await received(page);
  for (const message of messages) expect(message.origin).toBe(stack.serviceUrl);
  expect(messages[1]!.data).toEqual({ source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId: session.sessionId, event: 'connect:success', platform: 'facebook' });
  expect(JSON.stringify(messages)).not.toContain(new URL(session.url).searchParams.get('session'));

  const read = await stack.api('GET', `/profiles/link-sessions/${session.sessionId}`);
  expect(read.json.completedNetworks).toEqual(['facebook']);
  const user = await stack.api('GET', '/user');
  // Each consent makes its own sandbox user: the name says which.
  expect(user.json.displayNames[0]).toMatchObject({ platform: 'facebook', displayName: expect.stringMatching(/^Sandbox Facebook account \(sandbox_facebook_[0-9a-f]{8}\)$/) });
});

test('a denied consent is connect:cancelled with reason denied; a network error and a refused code are connect:error', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator }, { allowedSocial: ['linkedin'] });
  const frame = await openFramed(integrator, page, session.url);

  await consent(page, frame, 'LinkedIn', 'Deny');
  await expect(frame.getByText('You did not allow access to LinkedIn.')).toBeVisible();

  await consent(page, frame, 'LinkedIn', 'Simulate a network error');
  await expect(frame.getByText(/LinkedIn could not be connected: The network reported an error/)).toBeVisible();

  await consent(page, frame, 'LinkedIn', 'Simulate a refused code exchange');
  await expect(frame.getByText(/LinkedIn could not be connected: The network refused the authorization code/)).toBeVisible();

  const messages = (await received(page)).map((m) => m.data).filter((d) => d.event !== 'connect:ready');
  expect(messages.map((d) => [d.event, d.reason ?? d.code])).toEqual([
    ['connect:cancelled', 'denied'],
    ['connect:error', 513],
    ['connect:error', 512],
  ]);
  const read = await stack.api('GET', `/profiles/link-sessions/${session.sessionId}`);
  expect(read.json.completedNetworks).toEqual([]);
});

test('popup mode: messages go to the opener; closing the network window is connect:cancelled popup_closed', async ({ page, integrator, stack }) => {
  const session = await createSession({ stack, integrator }, { allowedSocial: ['youtube'] });
  await page.goto(`${integrator.origin}/?mode=popup&link=${encodeURIComponent(session.url)}`);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Open link in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();

  const networkPromise = hosted.waitForEvent('popup');
  await hosted.getByRole('button', { name: 'Connect YouTube' }).click();
  const network = await networkPromise;
  await expect(network.getByText(/Sandbox network/)).toBeVisible();
  await network.close();
  await expect(hosted.getByText('The YouTube window was closed before you finished.')).toBeVisible();

  const again = hosted.waitForEvent('popup');
  await hosted.getByRole('button', { name: 'Connect YouTube' }).click();
  const second = await again;
  await second.getByRole('button', { name: 'Allow' }).click();
  await expect(hosted.getByText('YouTube is connected.')).toBeVisible();
  await expect.poll(() => events(page)).toEqual(['connect:ready', 'connect:cancelled', 'connect:success']);
  expect((await received(page))[1]!.data).toMatchObject({ reason: 'popup_closed', platform: 'youtube' });
});

test('direct mode: the token leaves the address bar, a reload keeps working, requests carry no Referer', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator }, { redirect: `${integrator.origin}/?returned=1` });
  const referers: string[] = [];
  page.on('request', (request) => {
    const referer = request.headers()['referer'];
    if (referer) referers.push(referer);
  });
  const response = await page.goto(session.url);
  expect(response!.headers()['cache-control']).toBe('no-store');
  expect(response!.headers()['referrer-policy']).toBe('no-referrer');
  expect(response!.headers()['content-security-policy']).toContain(`frame-ancestors ${integrator.origin}`);
  expect(response!.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  // The page's script replaces the address once it has read the token; the heading can show a moment before that.
  await expect(page).not.toHaveURL(/session=/);
  await expect(page).toHaveURL(new RegExp(`[?&]sid=${session.sessionId}`));

  const reloaded = await page.reload();
  expect(reloaded!.headers()['content-security-policy']).toContain(`frame-ancestors ${integrator.origin}`);
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  expect(referers).toEqual([]);
  expect(stack.logs.join('')).not.toContain(new URL(session.url).searchParams.get('session')!);

  await page.getByRole('button', { name: 'Return to the app' }).click();
  await expect(page).toHaveURL(`${integrator.origin}/?returned=1`);
});

test('disconnect removes the account from the profile', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator }, { allowedSocial: ['reddit'] });
  const frame = await openFramed(integrator, page, session.url);
  await consent(page, frame, 'Reddit', 'Allow');
  await expect(frame.getByText('Reddit is connected.')).toBeVisible();
  expect((await stack.api('GET', '/user')).json.activeSocialAccounts).toContain('reddit');
  await frame.getByRole('button', { name: 'Disconnect Reddit' }).click();
  await frame.getByRole('group', { name: 'Disconnect Reddit? The app will no longer be able to publish there.' }).getByRole('button', { name: 'Disconnect' }).click();
  await expect(frame.getByText('Reddit was disconnected.')).toBeVisible();
  expect((await stack.api('GET', '/user')).json.activeSocialAccounts).not.toContain('reddit');
});

test('revocation mid-flow ends the page and sends connect:cancelled revoked', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator });
  const frame = await openFramed(integrator, page, session.url);
  await stack.api('DELETE', `/profiles/link-sessions/${session.sessionId}`);
  await expect(frame.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible({ timeout: 10_000 });
  await expect.poll(() => events(page)).toEqual(['connect:ready', 'connect:cancelled']);
  expect((await received(page))[1]!.data.reason).toBe('revoked');
});

test('expiry mid-flow ends the page and sends connect:cancelled expired', async ({ page, stack, integrator }) => {
  await page.clock.install();
  const session = await createSession({ stack, integrator }, { expiresIn: 1 });
  const frame = await openFramed(integrator, page, session.url);
  await page.clock.fastForward('01:05');
  await expect(frame.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await expect.poll(() => events(page)).toEqual(['connect:ready', 'connect:cancelled']);
  expect((await received(page))[1]!.data.reason).toBe('expired');
});

test('unknown links show the invalid page; another origin gets no messages and cannot frame the page', async ({ page, context, stack, thirdParty, integrator }) => {
  await page.goto(`${stack.serviceUrl}/link?session=${'A'.repeat(43)}&domain=dev`);
  await expect(page.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible();

  // A third origin frames the link: frame-ancestors blocks it, nothing arrives.
  const session = await createSession({ stack, integrator });
  await page.goto(`${thirdParty.origin}/?mode=frame&link=${encodeURIComponent(session.url)}`);
  await page.waitForTimeout(1500);
  const hostedFrame = page.frames().find((f) => f.url().startsWith(stack.serviceUrl));
  expect(await hostedFrame?.locator('h1').count().catch(() => 0) ?? 0).toBe(0);
  expect(await received(page)).toEqual([]);

  // A third origin opens the link in a popup: the page works but posts only to the session origin.
  const other = await createSession({ stack, integrator });
  const opener = await context.newPage();
  await opener.goto(`${thirdParty.origin}/?mode=popup&link=${encodeURIComponent(other.url)}`);
  const popupPromise = opener.waitForEvent('popup');
  await opener.getByRole('button', { name: 'Open link in a popup' }).click();
  const hosted = await popupPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await hosted.waitForTimeout(500);
  expect(await received(opener)).toEqual([]);
});

test('bluesky links with an app password; telegram links when the bot receives the code', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator }, { allowedSocial: ['bluesky', 'telegram'] });
  const frame = await openFramed(integrator, page, session.url);

  await frame.getByRole('button', { name: 'Connect Bluesky' }).click();
  await frame.getByLabel('Handle').fill('ada.bsky.social');
  await frame.getByLabel('App password').fill('not-the-password');
  await frame.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(frame.getByText(/Bluesky could not be connected: The handle or app password is not correct/)).toBeVisible();
  await frame.getByLabel('App password').fill('sandbox-app-password');
  await frame.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(frame.getByText('Bluesky is connected.')).toBeVisible();

  await frame.getByRole('button', { name: 'Connect Telegram' }).click();
  const code = (await frame.getByLabel('Code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const update = await fetch(`${stack.serviceUrl}/webhooks/telegram/${TELEGRAM_SECRET}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': TELEGRAM_SECRET },
    body: JSON.stringify({ update_id: 7, message: { text: `/start ${code}`, chat: { id: 99, type: 'private', first_name: 'Ada' } } }),
  });
  expect(update.status).toBe(200);
  await expect(frame.getByText('Telegram is connected.')).toBeVisible({ timeout: 10_000 });

  const outcomes = (await received(page)).map((m) => m.data).filter((d) => d.event !== 'connect:ready');
  expect(outcomes.map((d) => [d.event, d.platform, d.code])).toEqual([
    ['connect:error', 'bluesky', 513],
    ['connect:success', 'bluesky', undefined],
    ['connect:success', 'telegram', undefined],
  ]);
  const read = await stack.api('GET', `/profiles/link-sessions/${session.sessionId}`);
  expect(read.json.completedNetworks).toEqual(['bluesky', 'telegram']);
});

test.describe('accessibility', () => {
  // axe is injected as a script, which the page's CSP would refuse; only this check bypasses it.
  test.use({ bypassCSP: true });

  test('the hosted page has no axe violations and works from the keyboard', async ({ page, stack, integrator }) => {
    // Earlier tests linked some of these on the shared profile; start from none linked.
    for (const platform of ['facebook', 'bluesky', 'telegram']) await stack.api('DELETE', '/profiles/social', { platform });
    const session = await createSession({ stack, integrator }, { allowedSocial: ['facebook', 'bluesky', 'telegram'] });
    await page.goto(session.url);
    await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
    await page.addScriptTag({ path: 'node_modules/axe-core/axe.min.js' });
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe.run();
      return result.violations.map((v) => v.id);
    });
    expect(violations).toEqual([]);

    // Tab reaches every connect button in order; Enter on Bluesky opens its form with focus in the handle field.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Connect Facebook' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Connect Bluesky' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Handle')).toBeFocused();
    const withForm = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run(): Promise<{ violations: { id: string }[] }> } }).axe.run();
      return result.violations.map((v) => v.id);
    });
    expect(withForm).toEqual([]);
  });
});

test.describe('in-app browsers', () => {
  test.use({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A; wv) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36 Instagram 300.0' });

  test('an embedded web view gets the open-in-your-browser notice', async ({ page, stack, integrator }) => {
    const session = await createSession({ stack, integrator });
    await page.goto(session.url);
    await expect(page.locator('[data-webview]')).toContainText('open this page in your browser');
  });
});

test('a regular browser gets no web view notice', async ({ page, stack, integrator }) => {
  const session = await createSession({ stack, integrator });
  await page.goto(session.url);
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await expect(page.locator('[data-webview]')).toHaveCount(0);
});

test('the log check every stack spec ends with can fail: a seen secret or a raw link token in the log is refused', () => {
  const line = '{"level":"info","route":"/connect"}';
  expect(() => assertLogsKeepSecrets([line], new Set(['sk_e2e_secret_value']))).not.toThrow();
  expect(() => assertLogsKeepSecrets([`${line} sk_e2e_secret_value`], new Set(['sk_e2e_secret_value']))).toThrow(/secrets reached/);
  expect(() => assertLogsKeepSecrets(['GET /connect?session=abcdefghijklmnop'], new Set())).toThrow(/link token/);
  expect(() => assertLogsKeepSecrets(['GET /connect?session=[redacted]'], new Set())).not.toThrow();
  expect(() => assertLogsKeepSecrets([], new Set())).toThrow(/no log lines/);
});
