/**
 * Screenshots of the publishing flow for the README's publishing guide, written to docs/screenshots/ only when
 * `SCREENSHOTS=1` (they are committed; a normal test run leaves them alone):
 *
 *   SCREENSHOTS=1 npx playwright test test/e2e/demo/publishing-screenshots.spec.ts
 *
 * publish-composer.png (the demo's Publish section: composer with two sandbox accounts linked and a post typed, then its
 * post list), publish-posts.png
 * (the post list with a published, a scheduled and an approval-held post), publish-feed.png (the sandbox feed
 * showing what the networks published).
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import { localDateTime, openDemo, openMoreOptions, postStatus } from './helpers.js';

const OUT = 'docs/screenshots';
test.skip(process.env.SCREENSHOTS !== '1', 'set SCREENSHOTS=1 to refresh docs/screenshots');
test.use({ viewport: { width: 960, height: 720 }, deviceScaleFactor: 1 });
test.use({ stackOptions: { withDemo: true } });

/** The post list's line of a post (the list shortens long texts, so it is found by the text's start). */
const postLine = (page: Page, text: string) => page.locator('#posts > li', { hasText: text.slice(0, 30) });

async function publish(page: Page, text: string, options: { scheduleInMinutes?: number; approval?: boolean; comment?: string } = {}) {
  await page.locator('#post-text').fill(text);
  await page.locator('#post-schedule').fill(options.scheduleInMinutes === undefined ? '' : await localDateTime(page, options.scheduleInMinutes));
  await page.locator('#post-approval').setChecked(options.approval === true);
  await openMoreOptions(page);
  await page.locator('#post-comment').fill(options.comment ?? '');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(postLine(page, text)).toBeVisible({ timeout: 15_000 });
}

test('screenshots of the publishing flow: composer, post list, sandbox feed', async ({ page, stack }) => {
  test.setTimeout(60_000);
  await openDemo(page, stack);
  for (const network of ['facebook', 'bluesky']) {
    await page.locator('#sandbox-platform').selectOption(network);
    await page.getByRole('button', { name: 'Link a sandbox account' }).click();
    await expect(page.locator('#post-platforms').getByLabel(network)).toBeVisible();
  }
  // Checked once both are linked: linking redraws the network checkboxes.
  for (const network of ['facebook', 'bluesky']) await page.locator('#post-platforms').getByLabel(network).check();
  const composer = page.locator('section', { has: page.locator('#compose-heading') });

  const now = 'Our spring collection is live: twenty new colours, made to last.';
  await publish(page, now, { comment: 'Questions? Ask us here.' });
  await expect(postStatus(page, now)).toHaveText('published', { timeout: 15_000 });
  await publish(page, 'Workshop on Thursday at 18:00, book a seat today.', { scheduleInMinutes: 24 * 60 });
  await publish(page, 'Draft for the team: summer opening hours.', { scheduleInMinutes: 48 * 60, approval: true });
  await expect(postStatus(page, 'summer opening hours')).toHaveText('awaiting approval');

  // The composer as a user fills it in, then the list below it with each post's live status.
  await page.locator('#post-text').fill('Behind the scenes: how we test every colour.');
  await page.locator('#post-schedule').fill('');
  await page.locator('#post-approval').setChecked(false);
  await page.locator('#post-comment').fill('');
  await composer.screenshot({ path: `${OUT}/publish-composer.png` });
  await page.locator('#posts').screenshot({ path: `${OUT}/publish-posts.png` });

  const feedUrl = await page.locator('#feed-link').getAttribute('href');
  await page.goto(feedUrl!);
  await expect(page.getByText('twenty new colours').first()).toBeVisible();
  await page.screenshot({ path: `${OUT}/publish-feed.png`, fullPage: true });
});
