// Time from the integrator's click to the visible linking UI (the hosted page's heading rendered), in frame and
// popup modes, through the demo site and the widget's script-tag build, in the system Chromium. Median of N runs.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.config.mjs';

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** demoUrl: a running demo site (npm start). Returns {frameMs, popupMs} medians. */
export async function measureClickToUi(demoUrl, runs = 5) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const frame = [];
  const popup = [];
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(demoUrl);
      await page.locator('social-link-button').waitFor();
      const started = Date.now();
      await page.locator('#frame-button').click();
      await page.frameLocator('iframe').getByRole('heading', { name: 'Connect your social accounts' }).waitFor();
      frame.push(Date.now() - started);

      const popupStarted = Date.now();
      const opened = page.waitForEvent('popup');
      await page.keyboard.press('Escape');
      await page.locator('#popup-button').click();
      const win = await opened;
      await win.getByRole('heading', { name: 'Connect your social accounts' }).waitFor();
      popup.push(Date.now() - popupStarted);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return { frameMs: median(frame), popupMs: median(popup), runs };
}
