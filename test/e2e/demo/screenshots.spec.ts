/**
 * Screenshots of the demo for the README's integrator guide, written to docs/screenshots/ only when
 * `SCREENSHOTS=1` (they are committed; a normal test run leaves them alone):
 *
 *   SCREENSHOTS=1 npx playwright test test/e2e/demo/screenshots.spec.ts
 *
 * demo.png (the demo page after a link), frame-mode.png (the overlay open), popup-mode.png (the hosted page in
 * its popup), sandbox-consent.png (a sandbox network's consent window).
 */
import { expect, test } from '../support/fixtures.js';
import { consent, openDemo, openFrame, openPopup } from './helpers.js';

const OUT = 'docs/screenshots';
test.skip(process.env.SCREENSHOTS !== '1', 'set SCREENSHOTS=1 to refresh docs/screenshots');
test.use({ viewport: { width: 960, height: 720 }, deviceScaleFactor: 1 });

test.use({ stackOptions: { withDemo: true } });

test('screenshots of the demo in every mode', async ({ page, stack }) => {
  await openDemo(page, stack);

  // The overlay, then the sandbox consent window opened from it; linking one network fills the demo's log.
  const frame = await openFrame(page);
  await page.screenshot({ path: `${OUT}/frame-mode.png` });
  await consent(frame, page, 'Facebook', 'Allow', `${OUT}/sandbox-consent.png`);
  await expect(frame.getByText('Facebook is connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#accounts')).toContainText('facebook');

  const hosted = await openPopup(page);
  await hosted.setViewportSize({ width: 520, height: 720 });
  await hosted.screenshot({ path: `${OUT}/popup-mode.png` });
  await hosted.close();
  await expect(page.locator('#event-log li.ev-cancel')).toHaveCount(1, { timeout: 10_000 });

  await page.screenshot({ path: `${OUT}/demo.png`, fullPage: true });
});
