/**
 * A page on a third origin (neither the service nor the demo) gets hold of a link the demo's backend created for
 * the demo's origin. Framing it is refused by the hosted page's `frame-ancestors`; opening it in a popup works
 * for the user, but the hosted page posts only to the demo's origin, so the third page receives nothing. The
 * widget itself, used on the third origin, tells the user when the refused frame never answers.
 */
import { expect, test } from '../support/fixtures.js';
import type { Page } from '@playwright/test';
import type { Stack } from '../support/stack.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';
import { readDemoSession } from './helpers.js';

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

test('the widget on a third origin: the browser refuses the frame, and the dialog says the page is not responding', async ({ page, stack, thirdParty }) => {
  const link = await demoLink(stack, 'frame');
  await page.goto(`${thirdParty.origin}/?mode=none`);
  const errors = await page.evaluate(
    async ({ serviceUrl, url }) => {
      // eslint-disable-next-line no-unsanitized/method -- the test's own service URL, as an integrator's script tag loads it
      const widget = await import(`${serviceUrl}/widget/social-link.js`);
      const seen: Array<{ reason: string | null; code: number | null }> = [];
      (window as unknown as { widgetErrors: typeof seen }).widgetErrors = seen;
      widget.open({ url, mode: 'frame', readyTimeoutMs: 1500, onError: ({ reason, code }: { reason: string | null; code: number | null }) => seen.push({ reason, code }) });
      return seen;
    },
    { serviceUrl: stack.serviceUrl, url: link.url },
  );
  expect(errors).toEqual([]);
  const dialog = page.getByRole('dialog', { name: 'Connect your social accounts' });
  await expect(dialog.getByRole('alert')).toHaveText(/not responding/);
  expect(await page.evaluate(() => (window as unknown as { widgetErrors: unknown[] }).widgetErrors)).toEqual([{ reason: 'load_timeout', code: null }]);
  await expect(page.frameLocator('social-link-dialog iframe').getByRole('heading', { name: 'Connect your social accounts' })).toHaveCount(0);
  expect(await received(page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
});
