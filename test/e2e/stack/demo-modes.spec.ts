/**
 * The demo integrator site driving every mode end to end, as integrators use the kit: the service
 * (http://127.0.0.1:<port>) and the demo (http://localhost:<port>) run as child processes, cross-origin.
 * (The README's screenshots come from test/e2e/demo/screenshots.spec.ts.)
 */
import { expect, test, type Page } from '@playwright/test';
import { startStack, type Stack } from '../support/stack.js';

let stack: Stack;
test.beforeAll(async () => {
  stack = await startStack({ withDemo: true });
});
test.afterAll(async () => {
  await stack.stop();
});

const log = (page: Page) => page.locator('#event-log li');
const logText = async (page: Page) => (await log(page).allTextContents()).reverse().join('\n');
const hostedFrame = (page: Page) => page.frameLocator('iframe');

async function openDemo(page: Page) {
  await page.goto(stack.demoUrl!);
  await expect(page.getByRole('heading', { name: /Acme Scheduler/ })).toBeVisible();
  await expect(page.locator('#accounts')).not.toContainText('Loading');
}

/** Clicks Connect <network> in `where` and answers the sandbox consent page with `choice`. */
async function consent(where: Page | ReturnType<Page['frameLocator']>, opener: Page, network: string, choice: string) {
  const popupPromise = opener.waitForEvent('popup');
  await where.getByRole('button', { name: `Connect ${network}` }).click();
  const popup = await popupPromise;
  await expect(popup.getByText(/Sandbox network: no real/)).toBeVisible();
  await popup.getByRole('button', { name: choice }).click();
  await popup.waitForEvent('close');
}

test('frame mode (script-tag element): link, error, then close', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'Connect in a frame' }).click();
  const frame = hostedFrame(page);
  await expect(frame.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await expect(page.locator('#event-log li', { hasText: 'ready' })).toHaveCount(1);

  await consent(frame, page, 'Facebook', 'Allow');
  await expect(page.locator('#event-log li.ev-success')).toContainText('"platform":"facebook"');
  await consent(frame, page, 'LinkedIn', 'Simulate a network error');
  await expect(page.locator('#event-log li.ev-error')).toContainText('"code":513');
  // keep-open: the overlay stays for more networks; the dialog's close button ends it.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(page.locator('#accounts')).toContainText('facebook: Sandbox Facebook account');
  const text = await logText(page);
  expect(text).toMatch(/ready[\s\S]*success[\s\S]*error/);
});

test('popup mode from the demo button: link, the user closes the network window, then the linking window', async ({ page }) => {
  await openDemo(page);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();

  await consent(hosted, hosted, 'LinkedIn', 'Allow');
  await expect(page.locator('#event-log li.ev-success')).toContainText('"platform":"linkedin"');

  const networkPromise = hosted.waitForEvent('popup');
  await hosted.getByRole('button', { name: 'Connect YouTube' }).click();
  await (await networkPromise).close();
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"popup_closed"');

  // After a success, closing the linking window is a plain close: the widget checks the server and reports
  // nothing new (LinkedIn was already reported).
  await hosted.close();
  await page.waitForTimeout(2500);
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  await expect(page.locator('#event-log li.ev-success')).toHaveCount(1);
});

test('popup mode: closing the linking window before linking anything is connect:cancelled popup_closed', async ({ page }) => {
  await openDemo(page);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await hosted.close();
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"popup_closed"', { timeout: 10_000 });
});

test('popup mode: a blocked popup is reported as popup_blocked', async ({ page }) => {
  await page.addInitScript(() => {
    window.open = () => null;
  });
  await openDemo(page);
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  await expect(page.locator('#event-log li.ev-error')).toContainText('"reason":"popup_blocked"');
});

test('direct mode: the tab goes to the hosted page and comes back through redirect', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'Go to the linking page' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  expect(page.url()).not.toContain('session=');
  await consent(page, page, 'Reddit', 'Deny');
  await expect(page.getByText('You did not allow access to Reddit.')).toBeVisible();
  await consent(page, page, 'Reddit', 'Allow');
  await expect(page.getByText('Reddit is connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Return to the app' }).click();
  await expect(page.locator('#event-log li', { hasText: 'direct-return' })).toContainText('"completedNetworks":["reddit"]');
});

test('revoking the session while the frame is open ends it with connect:cancelled revoked', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'Connect in a frame' }).click();
  await expect(hostedFrame(page).getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  const ready = await page.locator('#event-log li', { hasText: 'ready' }).first().textContent();
  const sessionId = /"sessionId":"(ls_[0-9a-f]+)"/.exec(ready ?? '')![1]!;
  const revoked = await stack.api('DELETE', `/profiles/link-sessions/${sessionId}`);
  expect(revoked.status).toBe(200);
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"revoked"', { timeout: 10_000 });
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('expiry while the frame is open ends it with connect:cancelled expired', async ({ page }) => {
  await page.clock.install();
  await openDemo(page);
  await page.getByRole('button', { name: 'Connect in a frame' }).click();
  await expect(hostedFrame(page).getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await page.clock.fastForward('05:05');
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"expired"');
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('simulated native app: the link opens in a new tab; the app learns the result by reading the session', async ({ page }) => {
  await openDemo(page);
  const tabPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect from the app' }).click();
  const tab = await tabPromise;
  await expect(tab.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  // An app-scheme origin gets no postMessage and no framing.
  const csp = await tab.evaluate(async () => (await fetch(location.href)).headers.get('content-security-policy'));
  expect(csp).toContain("frame-ancestors 'none'");
  await consent(tab, tab, 'Pinterest', 'Allow');
  await expect(page.locator('#event-log li', { hasText: 'native-status' })).toContainText('pinterest', { timeout: 10_000 });
  await expect(page.locator('#session-status')).toContainText('completed: pinterest');
});

test('unlinking from the demo removes the account', async ({ page }) => {
  await openDemo(page);
  await page.getByRole('button', { name: 'Connect in a frame' }).click();
  await consent(hostedFrame(page), page, 'Threads', 'Allow');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#accounts')).toContainText('threads');
  await page.getByRole('button', { name: 'Unlink threads' }).click();
  await expect(page.locator('#accounts')).not.toContainText('threads');
  const user = await stack.api('GET', '/user');
  expect(user.json.activeSocialAccounts).toEqual([]);
});

test('the service serves the script-tag build to any origin, as the integrator guide shows', async ({ page }) => {
  await page.goto(stack.demoUrl!);
  const loaded = await page.evaluate(async (serviceUrl) => {
    const module = await import(`${serviceUrl}/widget/social-link.js`);
    return typeof module.open === 'function' && customElements.get('social-link-button') !== undefined;
  }, stack.serviceUrl);
  expect(loaded).toBe(true);
});

test('popup mode: a network error, then expiry, reach the demo as events', async ({ page, context }) => {
  await context.clock.install();
  await openDemo(page);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  // Snapchat: no other test of this file links it on the shared demo profile.
  await consent(hosted, hosted, 'Snapchat', 'Simulate a refused code exchange');
  await expect(page.locator('#event-log li.ev-error')).toContainText('"code":512');
  await context.clock.fastForward('05:05');
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"expired"');
});

test('popup mode: revoking while the popup is open ends it with revoked', async ({ page }) => {
  await openDemo(page);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await page.getByRole('button', { name: 'Revoke this session' }).click();
  await expect(page.locator('#event-log li', { hasText: 'revoked' }).first()).toBeVisible();
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"revoked"', { timeout: 10_000 });
});

test('direct mode: network error, revocation and expiry show on the page itself (no messages in direct mode)', async ({ page, context }) => {
  await context.clock.install();
  await openDemo(page);
  await page.getByRole('button', { name: 'Go to the linking page' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await consent(page, page, 'TikTok', 'Simulate a network error');
  await expect(page.getByText(/TikTok could not be connected: The network reported an error/)).toBeVisible();
  await context.clock.fastForward('05:05');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();

  await page.goto(stack.demoUrl!);
  await page.getByRole('button', { name: 'Go to the linking page' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  const sessionId = new URL(page.url()).searchParams.get('sid')!;
  await stack.api('DELETE', `/profiles/link-sessions/${sessionId}`);
  await context.clock.fastForward('00:06');
  await expect(page.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible();
});
