/**
 * The rest of the demo: its linked-accounts list with Unlink, and the script-tag build the service serves to any
 * integrator origin (the integrator guide's first snippet).
 */
import { expect, test } from '../support/fixtures.js';
import type { Stack } from '../support/stack.js';
import { consent, openDemo, openFrame, confirmDialog } from './helpers.js';

test.use({ stackOptions: { withDemo: true } });

/** The demo profile's linked networks, as the demo's backend reads them from the service. */
async function demoAccounts(stack: Stack): Promise<string[]> {
  const response = await fetch(`${stack.demoUrl}/api/accounts`);
  expect(response.status).toBe(200);
  const user = (await response.json()) as { activeSocialAccounts: string[] };
  return user.activeSocialAccounts;
}

test('unlinking from the demo removes the account from the profile', async ({ page, stack }) => {
  await openDemo(page, stack);
  const frame = await openFrame(page);
  await consent(frame, page, 'Threads', 'Allow');
  await expect(frame.getByText('Threads is connected.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.locator('#accounts')).toContainText('threads');
  expect(await demoAccounts(stack)).toContain('threads');

  await page.getByRole('button', { name: 'Unlink threads' }).click();
  // Asked first: cancelling keeps the account.
  await confirmDialog(page, 'Cancel');
  expect(await demoAccounts(stack)).toContain('threads');
  await page.getByRole('button', { name: 'Unlink threads' }).click();
  await confirmDialog(page, 'Unlink');
  await expect(page.locator('#accounts')).not.toContainText('threads');
  expect(await demoAccounts(stack)).not.toContain('threads');
});

test('the service serves the script-tag build to any origin, as the integrator guide shows', async ({ page, stack }) => {
  await page.goto(stack.demoUrl!);
  const loaded = await page.evaluate(async (serviceUrl) => {
    // eslint-disable-next-line no-unsanitized/method -- the test's own service URL: loading the script-tag build cross-origin is what it checks
    const module = await import(`${serviceUrl}/widget/social-link.js`);
    return typeof module.open === 'function' && customElements.get('social-link-button') !== undefined;
  }, stack.serviceUrl);
  expect(loaded).toBe(true);
});
