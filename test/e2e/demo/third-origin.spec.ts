/**
 * A page on a third origin (neither the service nor the demo) gets hold of a link the demo's backend created for
 * the demo's origin. Framing it is refused by the hosted page's `frame-ancestors`; opening it in a popup works
 * for the user, but the hosted page posts only to the demo's origin, so the third page receives nothing. The
 * widget itself, used on the third origin, names its origin to the page (`from`): the page then shows only an
 * "opened from another site" notice (framable by that origin alone) and sends the widget a coded error (505,
 * `origin_mismatch`) at once, instead of the 15-second "not responding".
 */
import { expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
import type { Stack } from '../support/stack.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';
import { readDemoSession } from './helpers.js';
import { axeViolations } from '../support/axe.js';

test.use({ stackOptions: { withDemo: true } });

/** A link created by the demo's backend, as its page would get it (the session's origin is the demo's). */
async function demoLink(stack: Stack, mode: 'frame' | 'popup') {
  const response = await fetch(`${stack.demoUrl}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode }) });
  expect(response.status).toBe(200);
  return (await response.json()) as { sessionId: string; url: string };
}

type Received = Array<{ origin: string; data: unknown }>;
const received = (page: Page) => page.evaluate(() => (window as unknown as { received: Received }).received);

test('an unlisted origin cannot frame the link: frame-ancestors names only the demo, and nothing is received', async ({ page, stack, thirdParty }) => {
  expect(new URL(thirdParty.origin).origin).not.toBe(new URL(stack.demoUrl!).origin);
  const link = await demoLink(stack, 'frame');
  const hostedResponse = page.waitForResponse((r) => r.url().startsWith(`${stack.serviceUrl}/link`) && r.request().resourceType() === 'document');
  await page.goto(`${thirdParty.origin}/?mode=frame&link=${encodeURIComponent(link.url)}`);
  const csp = (await hostedResponse).headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`frame-ancestors ${stack.demoUrl}`);
  expect(csp).not.toContain(thirdParty.origin);

  // The browser refuses to render the page in the frame: no hosted page, no script, no messages.
  const frame = page.frameLocator('iframe');
  await page.waitForTimeout(1500);
  await expect(frame.getByRole('heading', { name: 'Connect your social accounts' })).toHaveCount(0);
  await expect(frame.getByRole('button', { name: /Connect / })).toHaveCount(0);
  expect(await received(page)).toEqual([]);
  expect((await readDemoSession(stack, link.sessionId)).completedNetworks).toEqual([]);
});

test('the demo origin itself may frame the link (control for the test above)', async ({ page, stack }) => {
  const link = await demoLink(stack, 'frame');
  await page.goto(stack.demoUrl!);
  await page.evaluate((url) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    frame.id = 'control-frame';
    document.body.append(frame);
  }, link.url);
  await expect(page.frameLocator('#control-frame').getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
});

test('a third origin that opens the link in a popup receives no message, even when a network is linked', async ({ page, stack, thirdParty }) => {
  const link = await demoLink(stack, 'popup');
  await page.goto(`${thirdParty.origin}/?mode=popup&link=${encodeURIComponent(link.url)}`);
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Open link in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();

  const networkPromise = hosted.waitForEvent('popup');
  await hosted.getByRole('button', { name: 'Connect Facebook' }).click();
  const network = await networkPromise;
  await network.getByRole('button', { name: 'Allow' }).click();
  await expect(hosted.getByText('Facebook is connected.')).toBeVisible();

  // Ready, success and Done's cancel all went to the demo's origin only: the third page got none of them.
  await clickAndWaitForClose(hosted, hosted.getByRole('button', { name: 'Done' }));
  await page.waitForTimeout(500);
  expect(await received(page)).toEqual([]);
  // The service, the source of truth, has the completion for the demo's backend to read.
  expect((await readDemoSession(stack, link.sessionId)).completedNetworks).toEqual(['facebook']);
});

/** Loads the widget's script-tag build on `page` and opens `url` in `mode` from a click; errors land in window.widgetErrors. */
async function openWithWidget(page: Page, serviceUrl: string, url: string, mode: 'frame' | 'popup') {
  await page.evaluate(
    async ({ serviceUrl, url, mode }) => {
      // eslint-disable-next-line no-unsanitized/method -- the test's own service URL, as an integrator's script tag loads it
      const widget = await import(`${serviceUrl}/widget/social-link.js`);
      const seen: Array<{ reason: string | null; code: number | null }> = [];
      (window as unknown as { widgetErrors: typeof seen }).widgetErrors = seen;
      const button = document.createElement('button');
      button.textContent = 'Link with the widget';
      // A timeout far longer than the test: an error that arrives is the page's, not the widget's own.
      button.addEventListener('click', () =>
        widget.open({ url, mode, readyTimeoutMs: 600_000, onError: ({ reason, code }: { reason: string | null; code: number | null }) => seen.push({ reason, code }) }),
      );
      document.body.append(button);
    },
    { serviceUrl, url, mode },
  );
  await page.getByRole('button', { name: 'Link with the widget' }).click();
}

const widgetErrors = (page: Page) => page.evaluate(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors);
const ORIGIN_MISMATCH = { reason: 'origin_mismatch', code: 505 };

test('the widget on a third origin, frame mode: the page says it was opened from another site, and the widget gets 505 at once', async ({ page, stack, thirdParty }) => {
  const link = await demoLink(stack, 'frame');
  await page.goto(`${thirdParty.origin}/?mode=none`);
  await openWithWidget(page, stack.serviceUrl, link.url, 'frame');
  // The page tells the user, in the frame the browser now allows for the notice alone.
  const frame = page.frameLocator('social-link-dialog iframe');
  await expect(frame.getByRole('heading', { name: 'This link was opened from another site' })).toBeVisible();
  await expect(frame.getByRole('button')).toHaveCount(0);
  await expect.poll(() => widgetErrors(page)).toEqual([ORIGIN_MISMATCH]);
  const dialog = page.getByRole('dialog', { name: 'Connect your social accounts' });
  // Not the "not responding" notice: the widget stopped waiting when the page answered.
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  const hosted = page.frames().find((f) => f.url().startsWith(`${stack.serviceUrl}/link`));
  expect(hosted).toBeDefined();
  expect(await axeViolations(hosted!)).toEqual([]);
  // Only the error reached the third page: no ready, no session data.
  const messages = (await received(page)) as Array<{ data: { event?: string } }>;
  expect(messages.map((m) => m.data.event).filter((event) => event !== 'connect:resize')).toEqual(['connect:error']);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await readDemoSession(stack, link.sessionId)).completedNetworks).toEqual([]);
});

test('the widget on a third origin, popup mode: the popup says so in the browser language, and the widget gets 505', async ({ page, stack, thirdParty }) => {
  const link = await demoLink(stack, 'popup');
  await page.goto(`${thirdParty.origin}/?mode=none`);
  const popupPromise = page.waitForEvent('popup');
  await openWithWidget(page, stack.serviceUrl, link.url, 'popup');
  const hosted = await popupPromise;
  await expect(hosted.getByRole('heading', { name: 'This link was opened from another site' })).toBeVisible();
  await expect(hosted.getByRole('button', { name: /Connect / })).toHaveCount(0);
  await expect.poll(() => widgetErrors(page)).toEqual([ORIGIN_MISMATCH]);
  expect(await axeViolations(hosted)).toEqual([]);
  // The token left the address bar and was not kept: the notice is a dead end, not a way in.
  await expect(hosted).not.toHaveURL(/session=/);
});
