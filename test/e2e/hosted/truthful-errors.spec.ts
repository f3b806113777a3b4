/**
 * Errors that tell the truth on the hosted page (issue 24): a wrong bluesky app password says the password is not
 * correct and never "try again in a moment" (trying the same password again cannot help); a failure that may pass
 * on its own (the network reported an error) still says to try again.
 */
import { expect, test } from '../support/fixtures.js';
import { answerConsent, createLink, openInFrame, startConnect } from './harness.js';

test('a wrong bluesky app password says so, without "try again in a moment"; the right one connects', async ({ page, harness }) => {
  const link = await createLink(harness, { allowedSocial: ['bluesky'] });
  const frame = await openInFrame(page, harness.integrator, link.url);
  await frame.getByRole('button', { name: 'Connect Bluesky' }).click();
  await frame.getByLabel('Handle').fill('ada.bsky.social');
  await frame.getByLabel('App password').fill('not-the-password');
  await frame.getByRole('button', { name: 'Connect', exact: true }).click();
  const status = frame.getByText(/^Bluesky could not be connected:/);
  await expect(status).toHaveText('Bluesky could not be connected: The handle or app password is not correct.');
  await frame.getByLabel('App password').fill('sandbox-app-password');
  await frame.getByRole('button', { name: 'Connect', exact: true }).click();
  await expect(frame.getByText('Bluesky is connected.')).toBeVisible();
});

test('a network error on the consent screen still says to try again in a moment', async ({ page, context, harness }) => {
  const link = await createLink(harness, { allowedSocial: ['facebook'] });
  const frame = await openInFrame(page, harness.integrator, link.url);
  await answerConsent(await startConnect(context, frame, 'Facebook'), 'Simulate a network error');
  await expect(frame.getByText(/^Facebook could not be connected: .* Try again in a moment\.$/)).toBeVisible();
});
