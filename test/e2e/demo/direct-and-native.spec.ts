/**
 * Direct mode and the simulated native app through the demo site. Neither gets messages: direct mode navigates
 * the demo's own tab (it returns to /?returned=1 through `redirect`), and the native app (origin
 * `com.socialkit.demo:/linked`) polls the session read. The demo logs what the session read says, and shows the
 * custom-scheme return the page opened once the test, playing the operating system, delivers it.
 */
import { expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
import { consent, events, eventTypes, openDemo, openDirect, openNativeTab, readDemoSession } from './helpers.js';

test.use({ stackOptions: { withDemo: true } });

/** Back on the demo after direct mode: its `direct-return` log entry (the session read). */
async function directReturn(page: Page) {
  await expect(page.locator('#event-log li', { hasText: 'direct-return' })).toHaveCount(1);
  return (await events(page)).find((e) => e.type === 'direct-return')!.detail;
}

test('direct: links a sandbox network end to end and returns to the demo through redirect', async ({ page, stack }) => {
  await openDemo(page, stack);
  const sessionId = await openDirect(page);
  expect(page.url()).not.toContain('session=');
  await consent(page, page, 'Reddit', 'Allow');
  await expect(page.getByText('Reddit is connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Return to the app' }).click();
  await expect(page).toHaveURL(`${stack.demoUrl}/`);
  expect(await directReturn(page)).toEqual({ sessionId, completedNetworks: ['reddit'], state: 'active' });
  await expect(page.locator('#accounts')).toContainText('reddit: Sandbox Reddit account');
  // Direct mode has no window to message: no widget events at all.
  expect(await eventTypes(page)).toEqual(['direct-return']);
});

test('direct: returning without linking anything (cancel) comes back with nothing completed', async ({ page, stack }) => {
  await openDemo(page, stack);
  const sessionId = await openDirect(page);
  await page.getByRole('button', { name: 'Return to the app' }).click();
  expect(await directReturn(page)).toEqual({ sessionId, completedNetworks: [], state: 'active' });
});

test('direct: a denial and network errors show on the hosted page; the return reports nothing completed', async ({ page, stack }) => {
  await openDemo(page, stack);
  const sessionId = await openDirect(page);
  await consent(page, page, 'TikTok', 'Deny');
  await expect(page.getByText('You did not allow access to TikTok.')).toBeVisible();
  await consent(page, page, 'TikTok', 'Simulate a network error');
  await expect(page.getByText(/TikTok could not be connected: The network reported an error/)).toBeVisible();
  await consent(page, page, 'TikTok', 'Simulate a refused code exchange');
  await expect(page.getByText(/TikTok could not be connected: The network refused the authorization code/)).toBeVisible();
  await page.getByRole('button', { name: 'Return to the app' }).click();
  expect(await directReturn(page)).toEqual({ sessionId, completedNetworks: [], state: 'active' });
});

test('direct: revoked while open, the hosted page says the link is no longer valid; the demo reads revoked', async ({ page, stack }) => {
  await openDemo(page, stack);
  const sessionId = await openDirect(page);
  const revoke = await fetch(`${stack.demoUrl}/api/session/${sessionId}/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(revoke.status).toBe(200);
  // The hosted page revalidates every 5 s.
  await expect(page.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible({ timeout: 12_000 });
  await expect(page.getByRole('button', { name: /Connect / })).toHaveCount(0);
  // The user goes back by hand; the demo reads the session.
  await page.goto(`${stack.demoUrl}/?returned=1`);
  expect(await directReturn(page)).toEqual({ sessionId, completedNetworks: [], state: 'revoked' });
});

test('direct: expiry while open shows "This link has expired" (clock fast-forwarded)', async ({ page, context, stack }) => {
  await context.clock.install();
  await openDemo(page, stack);
  await openDirect(page);
  await context.clock.fastForward('05:05');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Connect / })).toHaveCount(0);
});

test('native app (simulated): the link opens in a new tab; the demo app learns the result by polling the session', async ({ page, stack }) => {
  await openDemo(page, stack);
  const { tab, sessionId } = await openNativeTab(page);
  expect(sessionId).toMatch(/^ls_/);
  await consent(tab, tab, 'Pinterest', 'Allow');
  await expect(page.locator('#event-log li', { hasText: 'native-status' })).toHaveCount(1, { timeout: 10_000 });
  expect((await events(page)).find((e) => e.type === 'native-status')!.detail).toEqual({ completedNetworks: ['pinterest'] });
  await expect(page.locator('#session-status')).toContainText(`${sessionId}: native app polling: active, completed: pinterest`);
  await expect(page.locator('#accounts')).toContainText('pinterest');
  // A custom-scheme origin gets no postMessage: nothing but the poll's entry in the log.
  expect(await eventTypes(page)).toEqual(['native-status']);
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual(['pinterest']);
});

test('native app (simulated): the custom-scheme return the page opens reaches the app, which shows it with its parameters', async ({ page, stack }) => {
  await openDemo(page, stack);
  const { tab, sessionId } = await openNativeTab(page);
  // The test plays the operating system: it sees the tab open the app's address and hands it to the app.
  const appReturn = tab.waitForRequest((request) => request.url().startsWith('com.socialkit.demo:'));
  // Snapchat: no other test of this file links it (they share the demo's account).
  await consent(tab, tab, 'Snapchat', 'Allow');
  const address = (await appReturn).url();
  await page.getByLabel('Return address').fill(address);
  await page.getByRole('button', { name: 'Deliver to the app' }).click();

  const shown = page.getByRole('region', { name: 'Return the app received' });
  await expect(shown.locator('code')).toHaveText(address);
  expect(new URL(address).searchParams.get('event')).toBe('connect:success');
  await expect(shown.locator('dt')).toHaveText(['event', 'sessionId', 'platform']);
  await expect(shown.locator('dd')).toHaveText(['connect:success', sessionId, 'snapchat']);
  expect((await events(page)).find((e) => e.type === 'native-return')!.detail).toEqual({ event: 'connect:success', sessionId, platform: 'snapchat' });
  // The app does not trust the address alone: it reads the session, which confirms the completion.
  await expect(page.locator('#session-status')).toContainText(`${sessionId}: app return connect:success: session active, completed: snapchat`);
});

test('native app (simulated): an address that is not the app\'s return is refused and shows nothing', async ({ page, stack }) => {
  await openDemo(page, stack);
  await page.getByLabel('Return address').fill('com.other.app:/linked?event=connect:success&sessionId=ls_x');
  await page.getByRole('button', { name: 'Deliver to the app' }).click();
  await expect(page.locator('#event-log li.ev-error')).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Return the app received' })).toBeHidden();
});

test('native app (simulated): a blocked browser tab is logged as popup_blocked', async ({ page, stack }) => {
  await page.addInitScript((origin) => {
    if (location.origin === origin) window.open = () => null;
  }, stack.demoUrl!);
  await openDemo(page, stack);
  await page.getByRole('button', { name: 'Connect from the app' }).click();
  await expect(page.locator('#event-log li.ev-error')).toHaveCount(1);
  expect((await events(page))[0]!.detail).toMatchObject({ reason: 'popup_blocked' });
});
