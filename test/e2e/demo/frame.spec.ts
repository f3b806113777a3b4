/**
 * Frame mode through the demo site: `<social-link-button mode="frame" keep-open>` from the script-tag build
 * opens a modal overlay with the hosted page in an iframe. Each test checks what the demo logs.
 */
import { expect, test } from '../support/fixtures.js';
import { consent, currentSessionId, events, eventTypes, openDemo, openFrame, readDemoSession } from './helpers.js';

test.use({ stackOptions: { withDemo: true } });

test('frame: links a sandbox network end to end; the overlay stays open (keep-open) and the account shows', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  const sessionId = await currentSessionId(page);

  await consent(frame, page, 'Facebook', 'Allow');
  await expect(frame.getByText('Facebook is connected.')).toBeVisible();
  await expect(page.locator('#event-log li.ev-success')).toHaveCount(1);
  const log = await events(page);
  expect(log.map((e) => e.type)).toEqual(['ready', 'success']);
  expect(log[0]!.detail).toEqual({ sessionId });
  expect(log[1]!.detail).toEqual({ sessionId, platform: 'facebook', via: 'message' });
  // No link token in anything the page shows.
  expect(JSON.stringify(log)).not.toContain('session=');

  await expect(page.locator('iframe')).toHaveCount(1);
  await expect(page.locator('#accounts')).toContainText('facebook: Sandbox Facebook account');
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual(['facebook']);

  // Closing after a success is a plain close: no cancel event.
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(await eventTypes(page)).toEqual(['ready', 'success']);
});

test('frame: the close button before linking anything is a cancel with reason close_button', async ({ page, stack }) => {
  await openDemo(page, stack);
  await openFrame(page);
  const sessionId = await currentSessionId(page);
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'close_button' });
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual([]);
});

test('frame: the hosted page\'s Done button before linking anything closes the overlay with reason close_button', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  const sessionId = await currentSessionId(page);
  await frame.getByRole('button', { name: 'Done' }).click();
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'close_button' });
  await expect(page.locator('iframe')).toHaveCount(0);
});

test('frame: Escape closes the overlay with reason escape', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  await frame.getByRole('heading', { name: 'Connect your social accounts' }).click();
  // keydown only: the frame is gone before a keyup could reach it, and press() would wait on it.
  await page.keyboard.down('Escape');
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1);
  expect((await events(page)).at(-1)!.detail).toMatchObject({ reason: 'escape' });
});

test('frame: a denied consent is a per-network cancel (denied) and the overlay stays open', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  await consent(frame, page, 'Reddit', 'Deny');
  await expect(frame.getByText('You did not allow access to Reddit.')).toBeVisible();
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"denied"');
  expect((await events(page)).at(-1)!.detail).toMatchObject({ platform: 'reddit', reason: 'denied' });
  await expect(page.locator('iframe')).toHaveCount(1);
  await expect(frame.getByRole('button', { name: 'Connect Reddit' })).toBeEnabled();
});

test('frame: a network error and a refused code exchange are error events with their codes', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  const sessionId = await currentSessionId(page);
  await consent(frame, page, 'LinkedIn', 'Simulate a network error');
  await expect(frame.getByText(/LinkedIn could not be connected: The network reported an error/)).toBeVisible();
  await consent(frame, page, 'LinkedIn', 'Simulate a refused code exchange');
  await expect(frame.getByText(/LinkedIn could not be connected: The network refused the authorization code/)).toBeVisible();
  await expect(page.locator('#event-log li.ev-error')).toHaveCount(2);
  const errors = (await events(page)).filter((e) => e.type === 'error').map((e) => e.detail);
  expect(errors.map((d) => [d.platform, d.code, d.sessionId])).toEqual([
    ['linkedin', 513, sessionId],
    ['linkedin', 512, sessionId],
  ]);
  // The overlay stays open after an error; the session has no completion.
  await expect(page.locator('iframe')).toHaveCount(1);
  expect((await readDemoSession(stack, sessionId)).completedNetworks).toEqual([]);
});

test('frame: closing the network window is a per-network cancel (popup_closed)', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  const popupPromise = page.waitForEvent('popup');
  await frame.getByRole('button', { name: 'Connect YouTube' }).click();
  const network = await popupPromise;
  await expect(network.getByText(/Sandbox network/)).toBeVisible();
  await network.close();
  await expect(frame.getByText('The YouTube window was closed before you finished.')).toBeVisible();
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"popup_closed"');
  expect((await events(page)).at(-1)!.detail).toMatchObject({ platform: 'youtube', reason: 'popup_closed' });
  await expect(page.locator('iframe')).toHaveCount(1);
});

test('frame: revoking the session from the demo while the overlay is open ends it with reason revoked', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  const sessionId = await currentSessionId(page);
  // The overlay is modal (the rest of the page is inert), so the integrator's backend revokes, as it would when
  // e.g. the user signs out in another tab.
  const revoke = await fetch(`${stack.demoUrl}/api/session/${sessionId}/revoke`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  expect(revoke.status).toBe(200);
  // The hosted page revalidates every 5 s and ends the link.
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"revoked"', { timeout: 12_000 });
  await expect(page.locator('iframe')).toHaveCount(0);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'revoked' });
  expect((await readDemoSession(stack, sessionId)).state).toBe('revoked');
  await expect(frame.getByRole('heading')).toHaveCount(0);
});

test('frame: expiry while the overlay is open ends it with reason expired (clock fast-forwarded)', async ({ page, stack }) => {
  await page.clock.install();
  await openDemo(page, stack);
  await openFrame(page);
  const sessionId = await currentSessionId(page);
  // One jump past the 5-minute lifetime: the hosted page's countdown tick fires once and ends the link. (Smaller
  // steps would let its revalidation re-base its clock on the server's time, which has not moved.)
  await page.clock.fastForward('05:05');
  await expect(page.locator('#event-log li.ev-cancel')).toContainText('"reason":"expired"');
  await expect(page.locator('iframe')).toHaveCount(0);
  expect((await events(page)).at(-1)!.detail).toEqual({ sessionId, reason: 'expired' });
});
