/**
 * Each screen of the demo (accounts, compose, calendar, posts, a post's page, webhooks) at desktop width and at
 * 390 px: screenshots (in the test's output; `SCREENSHOTS=1` also writes docs/screenshots/demo-<screen>-<width>.png),
 * no sideways scrolling at 390 px, axe-core clean at both widths. Also: a partly failed post reads "partly
 * published", its page says why in the network's words and retries the failed network only; destructive actions
 * ask first; the page works from the keyboard. Accounts come from the sandbox shortcut, to keep the spec fast.
 */
import type { Page } from '@playwright/test';
import { axeViolations } from '../support/axe.js';
import { expect, test } from '../support/fixtures.js';
import { confirmDialog, openDemo, openMoreOptions, postLine, postNetworks, postStatus } from './helpers.js';

test.use({ stackOptions: { withDemo: true }, viewport: { width: 1280, height: 900 } });
// A test run alone makes the accounts and posts first (ensureData) on a loaded machine.
test.describe.configure({ timeout: 60_000 });

const SCREENS = ['connect', 'compose', 'calendar', 'posts-screen', 'post-page', 'webhooks'] as const;
const PARTLY = 'Launch day';

async function linkSandbox(page: Page, network: string) {
  await page.locator('#sandbox-platform').selectOption(network);
  await page.getByRole('button', { name: 'Link a sandbox account' }).click();
  await expect(page.locator('#post-platforms').getByLabel(network)).toBeVisible();
}

async function publish(page: Page, text: string, platforms: string[], options: { override?: string; tomorrow?: boolean } = {}) {
  await page.locator('#post-text').fill(text);
  for (const box of await page.locator('#post-platforms input').all()) await box.setChecked(platforms.includes(await box.inputValue()));
  await openMoreOptions(page);
  await page.locator('#override-platform').selectOption(options.override ? 'threads' : '');
  await page.locator('#override-text').fill(options.override ?? '');
  const tomorrow = await page.evaluate(() => {
    const at = new Date(Date.now() + 24 * 3_600_000);
    at.setHours(10, 30, 0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  });
  await page.locator('#post-schedule').fill(options.tomorrow ? tomorrow : '');
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('#compose-status')).toContainText(/^Post /);
  await expect(postLine(page, text.replace(/<[^>]*>/g, '').slice(0, 30))).toBeVisible({ timeout: 10_000 });
}

/**
 * What every test here starts from, made once per stack (a failed test restarts the servers): three sandbox
 * accounts and a post that reached two of its three networks (threads gets a text with a fault marker).
 */
async function ensureData(page: Page) {
  for (const network of ['facebook', 'threads', 'bluesky']) {
    if ((await page.locator('#post-platforms').getByLabel(network).count()) === 0) await linkSandbox(page, network);
  }
  await expect(page.locator('#posts > li').first()).toBeVisible();
  if ((await postLine(page, PARTLY).count()) > 0) return;
  await publish(page, `${PARTLY}! <b>50% off</b> everything in store`, ['facebook', 'threads', 'bluesky'], { override: `Refused ${Date.now()} [[fault:379]]` });
  await expect(postStatus(page, PARTLY)).toHaveText('partly published', { timeout: 15_000 });
}

test('a partly failed post, its page, retry of the failed network only; delete asks first', async ({ page, stack }) => {
  await openDemo(page, stack);
  await ensureData(page);
  await expect(postNetworks(page, PARTLY)).toHaveText(['facebook: published', 'threads: failed', 'bluesky: published']);
  await expect(postLine(page, PARTLY).locator('b')).toHaveText('50% off');
  await expect(postLine(page, PARTLY)).not.toContainText('<b>');

  await postLine(page, PARTLY).getByRole('button', { name: 'Open' }).click();
  const post = page.locator('#post-page');
  await expect(post.getByRole('heading', { name: 'Post: partly published' })).toBeVisible();
  // The network's refusal in words, not a code.
  await expect(post.getByRole('row', { name: /threads/ }).locator('td').last()).toContainText('The threads post could not be created.');
  const facebookLink = await post.getByRole('link', { name: 'View on facebook' }).getAttribute('href');
  await expect(post.getByText('Retry sends the post again to threads only')).toBeVisible();
  await post.getByRole('button', { name: 'Retry failed networks' }).click();
  // Retried once: threads failed again (its text still carries the fault), facebook kept its one post.
  await expect(post.getByRole('button', { name: 'Retry failed networks' })).toHaveCount(0, { timeout: 10_000 });
  await expect(post.getByRole('link', { name: 'View on facebook' })).toHaveAttribute('href', facebookLink!);
  await expect(post.getByRole('row', { name: /threads/ })).toContainText('failed');

  // Delete asks first; Escape keeps the post.
  await post.getByRole('button', { name: 'Delete' }).click();
  await expect(page.locator('#confirm-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.locator('#confirm-dialog')).toBeHidden();
  await expect(postStatus(page, PARTLY)).toHaveText('partly published');
});

test('the page works from the keyboard: skip link, composer, a post page, the confirm dialog', async ({ page, stack }) => {
  await openDemo(page, stack);
  await ensureData(page);
  await openDemo(page, stack);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.locator('#post-text').focus();
  await page.keyboard.type('Typed from the keyboard');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  await expect(page.locator('#post-platforms input').first()).toBeChecked();
  const open = postLine(page, PARTLY).getByRole('button', { name: 'Open' });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#post-page')).toBeFocused();
  await page.getByRole('button', { name: 'Back to the posts' }).focus();
  await page.keyboard.press('Enter');
  await expect(open).toBeFocused();
  await postLine(page, PARTLY).getByRole('button', { name: 'Delete' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#confirm-cancel')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#confirm-dialog')).toBeHidden();
});

for (const width of [1280, 390]) {
  test(`every screen at ${width} px: screenshot, no sideways scroll, axe clean`, async ({ page, stack }, testInfo) => {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await openDemo(page, stack);
    await ensureData(page);
    // A scheduled post for the calendar and a second inbox delivery; the partly published post is the first test's.
    if ((await postLine(page, 'Workshop').count()) === 0) await publish(page, 'Workshop on Thursday at 18:00, book a seat today.', ['facebook', 'bluesky'], { tomorrow: true });
    await page.locator('#post-text').fill('Behind the scenes: how we test <b>every</b> colour.');
    await page.locator('#post-platforms').getByLabel('bluesky').check();
    await expect(page.locator('#previews li[data-platform="bluesky"]')).toContainText('Ready to publish.');
    await postLine(page, PARTLY).getByRole('button', { name: 'Open' }).click();
    await expect(page.locator('#post-page figure canvas').first()).toBeVisible();
    await expect(page.locator('#inbox > li').first()).toContainText('Signature valid', { timeout: 10_000 });
    await page.locator('#inbox > li summary').first().click();
    // Tomorrow on the calendar (on a Sunday, in next week's view): the workshop, and its "+" schedules a post there,
    // at 09:00 in the user's time zone.
    const tomorrow = await page.evaluate(() => {
      const at = new Date(Date.now() + 24 * 3_600_000);
      return { label: new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' }).format(at), value: `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T09:00` };
    });
    const addTomorrow = page.getByRole('button', { name: `Schedule a post on ${tomorrow.label}` });
    if ((await addTomorrow.count()) === 0) await page.getByRole('button', { name: 'Next week' }).click();
    await expect(page.locator('#week')).toContainText('Workshop');
    await addTomorrow.click();
    await expect(page.locator('#post-schedule')).toHaveValue(tomorrow.value);
    await expect(page.locator('#post-text')).toBeFocused();
    await expect(page.locator('#schedule-utc')).toContainText('UTC');
    await page.locator('#post-schedule').fill('');

    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await axeViolations(page)).toEqual([]);
    for (const screen of SCREENS) {
      const section = page.locator(`#${screen}`);
      const name = `demo-${screen.replace('-screen', '')}-${width}.png`;
      await section.screenshot({ path: testInfo.outputPath(name), animations: 'disabled' });
      if (process.env.SCREENSHOTS === '1') await section.screenshot({ path: `docs/screenshots/${name}` });
    }
    // Destructive actions ask first: unlinking is cancelled here.
    await page.getByRole('button', { name: 'Unlink bluesky' }).click();
    await confirmDialog(page, 'Cancel');
    await expect(page.locator('#accounts')).toContainText('bluesky');
  });
}
