/**
 * The demo as a product (issue 29), walked as a new user would, against the real service and demo as child
 * processes (every network on its sandbox): link an account on the hosted page, write a post and see each network's
 * counter (the protocol's counting code) and the service-checked preview, schedule it fifteen seconds ahead in the
 * user's time zone (shown with its UTC time), see it on the week calendar, see it publish, see its `scheduled`
 * webhook arrive in the sandbox inbox with a valid Standard Webhooks signature, open the post page and read its
 * analytics as a chart over time. axe-core runs on each screen on the way.
 */
import { expect, test } from '../support/fixtures.js';
import { axeViolations } from '../support/axe.js';
import { consent, openDemo, openFrame } from './helpers.js';

test.use({ stackOptions: { withDemo: true }, viewport: { width: 1280, height: 900 } });

test('link, preview, schedule on the calendar, see it publish, its webhook and its analytics chart', async ({ page, stack }) => {
  test.setTimeout(120_000);
  await openDemo(page, stack);
  // Empty states before anything exists.
  await expect(page.locator('#posts')).toContainText('No posts yet');
  await expect(page.locator('#inbox')).toContainText('No webhook deliveries yet');
  await expect(page.locator('#week')).toContainText('Nothing scheduled');
  expect(await axeViolations(page)).toEqual([]);

  // Link: bluesky on the hosted page, in the frame.
  const frame = await openFrame(page);
  await frame.getByRole('button', { name: 'Connect Bluesky', exact: true }).click();
  await frame.getByLabel('Handle').fill('demo.bsky.social');
  await frame.getByLabel('App password').fill('sandbox-app-password');
  await frame.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(frame.getByText('Bluesky is connected.')).toBeVisible();
  await consent(frame, page, 'Facebook', 'Allow');
  await page.getByRole('button', { name: 'Close' }).click();

  // Preview: counters in each network's unit (bluesky counts graphemes: the family emoji is one), checked by the service.
  const text = `Spring launch 👨‍👩‍👧 <b>today</b> ${Date.now()}`;
  await page.locator('#post-text').fill(text);
  await page.locator('#post-platforms').getByLabel('bluesky').check();
  await page.locator('#post-platforms').getByLabel('facebook').check();
  const bluesky = page.locator('#previews li[data-platform="bluesky"]');
  const graphemes = [...new Intl.Segmenter().segment(text.replace(/<\/?b>/g, ''))].length;
  await expect(bluesky.locator('.counter')).toHaveText(`${graphemes} / 300 characters`);
  await expect(bluesky.locator('b')).toHaveText('today');
  await expect(bluesky).toContainText('Ready to publish.');
  await expect(page.locator('#previews li[data-platform="facebook"]')).toContainText('Ready to publish.');
  // Too long for bluesky: the counter and the service say so before anything is sent.
  await page.locator('#post-text').fill('x'.repeat(301));
  await expect(bluesky.locator('.counter')).toHaveText('301 / 300 characters · becomes a thread');
  // Split into parts by the service's own splitter (shared through the protocol), then shown as the service sends it.
  await expect(bluesky.locator('.part')).toHaveText(['1/2', '2/2']);
  await page.locator('#post-text').fill(text);

  // Schedule 15 s ahead, in the browser's time zone; the page shows the UTC time the service will store. The post
  // must still be scheduled when the calendar shows it: 5 s ahead left a loaded machine's filling, sending and
  // redrawing a race with the due time (a post already published is never seen "(scheduled)").
  const at = await page.evaluate(() => {
    const when = new Date(Date.now() + 15_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return { local: `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}T${pad(when.getHours())}:${pad(when.getMinutes())}:${pad(when.getSeconds())}`, utc: `${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())} UTC` };
  });
  await page.locator('#post-schedule').fill(at.local);
  await expect(page.locator('#schedule-utc')).toContainText(at.utc);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.locator('#compose-status')).toContainText('scheduled');

  // On the calendar, in today's column, then published (the list says so with each network's result).
  const onCalendar = page.locator('#week .day.today button', { hasText: 'Spring launch' });
  await expect(onCalendar).toContainText('(scheduled)');
  const line = page.locator('#posts > li', { hasText: 'Spring launch' });
  await expect(line.locator('.badge')).toHaveText('published', { timeout: 40_000 });
  await expect(line.locator('.chips')).toHaveText(/bluesky: published.*facebook: published|facebook: published.*bluesky: published/);
  await expect(line.locator('b')).toHaveText('today');
  await expect(onCalendar).toContainText('(published)');

  // The `scheduled` webhook in the inbox, signature checked by the service with the registration's secret.
  const delivery = page.locator('#inbox > li', { hasText: 'scheduled' }).first();
  await expect(delivery).toContainText('Signature valid', { timeout: 15_000 });
  await delivery.locator('summary').click();
  await expect(delivery.locator('.headers')).toContainText('webhook-signature');
  await expect(delivery.locator('pre')).toContainText('"status": "success"');

  // The post page from the calendar: each network's result and link, then analytics as a chart over time.
  await onCalendar.click();
  const post = page.locator('#post-page');
  await expect(post.getByRole('heading', { name: 'Post: published' })).toBeVisible();
  await expect(post.getByRole('row', { name: /bluesky/ }).getByRole('link', { name: 'View on bluesky' })).toBeVisible();
  const chart = post.locator('section[aria-label="facebook analytics"] figure');
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart.locator('figcaption')).toContainText('(1 reading)');
  await post.getByRole('button', { name: 'Read analytics again' }).click();
  await expect(chart.locator('figcaption')).toContainText('(2 readings)');
  expect(await axeViolations(page)).toEqual([]);
});
