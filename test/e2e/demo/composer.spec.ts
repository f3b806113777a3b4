/**
 * The demo's composer as an integrator's user drives it (service and demo as child processes, every network on its
 * sandbox): link a sandbox account, compose, schedule a post for tomorrow (it waits, and can be paused), hold one
 * for approval and approve it (its time has passed, so it publishes at once), watch the live status in the post
 * list, post a sample WebP from the sandbox media host to instagram (converted to JPEG), and find the published text
 * and the converted image in the sandbox feed. The page passes axe-core with posts listed.
 */
import { axeViolations } from '../support/axe.js';
import { expect, test } from '../support/fixtures.js';
import { localDateTime, openDemo, openMoreOptions, postLine, postNetworks, postStatus } from './helpers.js';

test.use({ stackOptions: { withDemo: true } });

test('compose, schedule, approve, see the live status and the sandbox feed', async ({ page, stack }) => {
  test.setTimeout(60_000);
  await openDemo(page, stack);

  await page.locator('#sandbox-platform').selectOption('facebook');
  await page.getByRole('button', { name: 'Link a sandbox account' }).click();
  const facebook = page.locator('#post-platforms').getByLabel('facebook');
  await expect(facebook).toBeVisible();

  // Scheduled for tomorrow: it waits, and the list offers to pause it.
  const later = `Scheduled from the demo ${Date.now()}`;
  await page.locator('#post-text').fill(later);
  await facebook.check();
  await page.locator('#post-schedule').fill(await localDateTime(page, 24 * 60));
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('#compose-status')).toContainText('scheduled');
  await expect(postStatus(page, later)).toHaveText('scheduled');
  await expect(postLine(page, later).locator('.meta')).toContainText(/^for .* UTC$/);
  await expect(postLine(page, later).getByRole('button', { name: 'Pause' })).toBeVisible();

  // Held for approval, with a time that has already passed: approving publishes it at once.
  const held = `Approved from the demo ${Date.now()}`;
  await page.locator('#post-text').fill(held);
  await page.locator('#post-schedule').fill(await localDateTime(page, -1));
  await page.locator('#post-approval').check();
  await openMoreOptions(page);
  await page.locator('#post-comment').fill('A first comment from the demo');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('#compose-status')).toContainText('awaiting approval');
  await expect(postStatus(page, held)).toHaveText('awaiting approval');
  await postLine(page, held).getByRole('button', { name: 'Approve' }).click();
  // The list refreshes itself (live status): processing, then published on facebook.
  await expect(postStatus(page, held)).toHaveText('published', { timeout: 15_000 });
  await expect(postNetworks(page, held)).toHaveText(['facebook: published']);
  await expect(postStatus(page, later)).toHaveText('scheduled');

  // Media: a WebP sample from the sandbox media host, posted to instagram, which gets a JPEG copy at a signed address.
  await page.locator('#sandbox-platform').selectOption('instagram');
  await page.getByRole('button', { name: 'Link a sandbox account' }).click();
  const instagram = page.locator('#post-platforms').getByLabel('instagram');
  await expect(instagram).toBeVisible();
  const withMedia = `A WebP from the demo ${Date.now()}`;
  await page.locator('#post-text').fill(withMedia);
  await page.locator('#post-schedule').fill('');
  await page.locator('#post-approval').uncheck();
  await page.locator('#post-comment').fill('');
  await facebook.uncheck();
  await instagram.check();
  await page.getByLabel('Sample media from the sandbox media host').selectOption({ label: 'photo.webp' });
  await page.getByRole('button', { name: 'Add the sample' }).click();
  await expect(page.locator('#post-media')).toHaveValue(/\/sandbox\/media\/photo\.webp$/);
  // Its thumbnail, loaded from the sandbox media host.
  await expect.poll(() => page.locator('#media-thumbs img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(postStatus(page, withMedia)).toHaveText('published', { timeout: 15_000 });
  await expect(postNetworks(page, withMedia)).toHaveText(['instagram: published']);

  expect(await axeViolations(page)).toEqual([]);

  const feedUrl = await page.locator('#feed-link').getAttribute('href');
  // The feed's address holds a key the service handed out (never the profile's public reference id).
  expect(feedUrl).toMatch(/\/sandbox\/feed\?key=sbx_feed_/);
  await page.goto(feedUrl!);
  await expect(page.getByText(held)).toBeVisible();
  await expect(page.getByText(later)).toHaveCount(0);
  // The feed shows what instagram got: the converted JPEG from the service's signed media address.
  const converted = page.locator('article', { hasText: withMedia }).locator('img');
  await expect(converted).toHaveAttribute('src', /\/media\/[0-9a-f]{64}\.jpg\?expires=\d+&signature=/);
  await expect.poll(() => converted.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
});

test("the network limits page lists every network's limits, one row each, and passes axe", async ({ page, stack }) => {
  await openDemo(page, stack);
  const [limits] = await Promise.all([page.waitForEvent('popup'), page.getByRole('link', { name: 'What each network takes (limits)' }).click()]);
  await expect(limits.getByRole('heading', { level: 1, name: 'What each network takes' })).toBeVisible();
  await expect(limits.locator('tbody tr')).toHaveCount(13);
  await expect(limits.getByRole('row', { name: /X \(Twitter\)/ })).toContainText('280 weighted characters');
  expect(await axeViolations(limits)).toEqual([]);
});
