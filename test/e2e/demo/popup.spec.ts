/**
 * Popup mode through the demo site: the demo's own button calls `open({mode: 'popup', getUrl, checkStatus,
 * closeOnSuccess: false})` inside the click. Each test checks what the demo logs.
 */
import { expect, test } from '../support/fixtures.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';
import { consent, currentSessionId, events, eventTypes, openDemo, openPopup, readDemoSession, confirmDialog } from './helpers.js';

test.use({ stackOptions: { withDemo: true } });

test('popup: links a sandbox network end to end; Done afterwards closes the window without a cancel', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await consent(hosted, hosted, 'LinkedIn', 'Allow');
  await expect(hosted.getByText('LinkedIn is connected.')).toBeVisible();
  await expect(page.locator('#event-log li.ev-success')).toHaveCount(1);
  const log = await events(page);
  expect(log.map((e) => e.type)).toEqual(['ready', 'success']);
  expect(log[1]!.detail).toEqual({ sessionId, platform: 'linkedin', via: 'message' });
  await expect(page.locator('#accounts')).toContainText('linkedin: Sandbox LinkedIn account');
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual(['linkedin']);

  // closeOnSuccess: false keeps the window open for more networks; Done closes it.
  await clickAndWaitForClose(hosted, hosted.getByRole('button', { name: 'Done' }));
  await page.waitForTimeout(2500); // past the widget's close grace period
  expect(await eventTypes(page)).toEqual(['ready', 'success']);
});

test('popup: Done before linking anything is a cancel with reason close_button', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await clickAndWaitForClose(hosted, hosted.getByRole('button', { name: 'Done' }));
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'close_button' });
});

test('popup: the user closing the linking window is a cancel with reason popup_closed (after a status check)', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await hosted.close();
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1, { timeout: 10_000 });
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'popup_closed' });
});

test('popup: closing the network window is a per-network cancel; the linking window stays', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const networkPromise = hosted.waitForEvent('popup');
  await hosted.getByRole('button', { name: 'Connect YouTube' }).click();
  const network = await networkPromise;
  await expect(network.getByText(/Sandbox network/)).toBeVisible();
  await network.close();
  await expect(hosted.getByText('The YouTube window was closed before you finished.')).toBeVisible();
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toMatchObject({ platform: 'youtube', reason: 'popup_closed' });
  expect(hosted.isClosed()).toBe(false);
});

test('popup: a denied consent, a network error and a refused code exchange reach the demo', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await consent(hosted, hosted, 'Pinterest', 'Deny');
  await consent(hosted, hosted, 'Pinterest', 'Simulate a network error');
  await consent(hosted, hosted, 'Pinterest', 'Simulate a refused code exchange');
  await expect(page.locator('#event-log li')).toHaveCount(4);
  const log = (await events(page)).slice(1);
  expect(log.map((e) => [e.type, e.detail.platform, e.detail.reason ?? e.detail.code])).toEqual([
    ['cancel', 'pinterest', 'denied'],
    ['error', 'pinterest', 513],
    ['error', 'pinterest', 512],
  ]);
  for (const e of log) expect(e.detail.sessionId).toBe(sessionId);
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual([]);
});

test('popup: revoking the session from the demo while the window is open ends it with reason revoked', async ({ page, stack }) => {
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await page.getByRole('button', { name: 'Revoke this session' }).click();
  await confirmDialog(page, 'Revoke');
  await expect(page.locator('#event-log li.ev-revoked')).toHaveCount(1);
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1, { timeout: 12_000 });
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'revoked' });
  expect((await readDemoSession(stack, sessionId)).state).toBe('revoked');
  // The hosted page shows why, wherever the window still is.
  if (!hosted.isClosed()) await expect(hosted.getByRole('heading', { name: 'This link is no longer valid' })).toBeVisible();
});

test('popup: expiry while the window is open ends it with reason expired (clock fast-forwarded)', async ({ page, context, stack }) => {
  await context.clock.install();
  await openDemo(page, stack);
  const hosted = await openPopup(page);
  const sessionId = await currentSessionId(page);
  await context.clock.fastForward('05:05');
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'expired' });
  if (!hosted.isClosed()) await expect(hosted.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
});

test('popup: a blocked popup is an error with reason popup_blocked and creates no session', async ({ page, stack }) => {
  await openDemo(page, stack);
  const demoOrigin = stack.demoUrl!;
  // Block popups on the demo page only (not in the hosted page's own windows).
  await page.addInitScript((origin) => {
    if (location.origin === origin) window.open = () => null;
  }, demoOrigin);
  await page.reload();
  await expect(page.locator('#accounts')).not.toContainText('Loading');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  await expect(page.locator('#event-log li.ev-error')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toMatchObject({ code: null, reason: 'popup_blocked' });
  // The widget gives up before asking the backend for a link.
  await expect(page.locator('#session-status')).toHaveText('No session yet.');
});
