/**
 * Spec 5.3, 5.7: "Widget needs the max-pack add-on", in the widget's popup as in its frame. The real widget (the
 * service's script-tag build) opens the link in its popup from an integrator page whose account has no max-pack:
 * the hosted page shows the explaining screen (axe-clean), tells the integrator with a coded `connect:error`
 * (104, `max_pack_required`), and the service refuses the page's connect call carrying the widget's mode (403, 104);
 * the same link opened without the widget (direct mode, which the spec allows) still connects.
 */
import { expect, test } from '../support/fixtures.js';
import { en } from '../../../src/i18n/hosted/en.js';
import { axeViolations } from '../support/axe.js';
import { createLink, linkEvents } from './harness.js';

test('the widget popup without max-pack: the page explains, the integrator hears 104, the service refuses the connect', async ({ page, harness: h }) => {
  await h.svc.sql('UPDATE accounts SET max_pack = 0 WHERE id = ?', [h.svc.account.id]);
  try {
    const link = await createLink(h, { allowedSocial: ['reddit'] });
    const widget = `${h.svc.url}/widget/v1/social-link.js`;
    await page.goto(`${h.integrator.origin}/?mode=popup&widget=${encodeURIComponent(widget)}&link=${encodeURIComponent(link.url)}`);
    await expect(page.locator('body[data-widget="loaded"]')).toHaveCount(1);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open link in a popup' }).click()]);
    // The widget opens its window at once and then sends it to the link, with its mode added (`embed=popup`).
    await popup.waitForURL(/[?&]embed=popup(&|$)/);

    await expect(popup.getByRole('heading', { level: 1 })).toHaveText(en.embedTitle);
    await expect(popup.getByRole('button', { name: 'Connect Reddit' })).toHaveCount(0);
    await expect
      .poll(async () => (await linkEvents(page)).filter((m) => m.event === 'connect:error'))
      .toEqual([expect.objectContaining({ event: 'connect:error', code: 104, reason: 'max_pack_required' })]);
    expect(await axeViolations(popup)).toEqual([]);

    // The screen is not the only gate: the page's own call, as the widget's popup sends it, is refused by the service.
    const token = new URL(link.url).searchParams.get('session')!;
    const connect = (embed: string | null) =>
      popup.evaluate(
        async ([credential, mode]) => {
          const headers: Record<string, string> = { Authorization: `Bearer ${credential}` };
          if (mode) headers['X-Link-Embed'] = mode;
          const response = await fetch('/api/link/connect/reddit', { method: 'POST', headers });
          return { status: response.status, body: await response.json() };
        },
        [token, embed] as const,
      );
    const refused = await connect('popup');
    expect([refused.status, refused.body.status, refused.body.code, refused.body.details]).toEqual([403, 'error', 104, { embed: 'popup', reason: 'max_pack_required' }]);
    // Direct mode (a page opened without the widget) is allowed by the spec: the same call without the mode goes on.
    expect((await connect(null)).status).toBe(200);
  } finally {
    await h.svc.sql('UPDATE accounts SET max_pack = 1 WHERE id = ?', [h.svc.account.id]);
  }
});
