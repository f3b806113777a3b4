/**
 * The hosted page driven in Chromium through whole OAuth connections against the embedded sandbox network:
 * what the integrator's page receives (and only it), in frame and popup mode, for success, denial, network
 * errors, reload, expiry and revocation mid-flow, and disconnect.
 */
import { MESSAGE_SOURCE, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import { checkNoTokenLeakedAfterAll, expect, test } from '../support/fixtures.js';
import { ENGLISH_TEXTS } from '../../../hosted/src/texts.js';
import {
  answerConsent,
  createLink,
  linkEvents,
  networkRow,
  openInFrame,
  openInPopup,
  received,
  startConnect,
} from './harness.js';

const { t } = ENGLISH_TEXTS;

checkNoTokenLeakedAfterAll();

const envelope = (sessionId: string) => ({ source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId });

test('frame mode: a full OAuth connection posts connect:ready then connect:success to the session origin only', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['facebook', 'linkedin', 'bluesky'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(frame.getByRole('heading', { name: t('heading') })).toBeVisible();
  await expect(frame.getByText(h.svc.primaryProfile.title)).toBeVisible();
  await expect(frame.locator('li[data-platform]')).toHaveCount(3);
  await expect(networkRow(frame, 'facebook')).toContainText(t('notConnected'));
  await expect.poll(() => linkEvents(page)).toEqual([{ ...envelope(link.sessionId), event: 'connect:ready' }]);

  const oauthWindow = await startConnect(context, frame, 'Facebook');
  await expect(frame.getByRole('status').first()).toContainText('Facebook');
  await answerConsent(oauthWindow, 'Allow');

  await expect(networkRow(frame, 'facebook')).toContainText(t('connected'));
  await expect(frame.locator('main')).toContainText(t('linked', { network: 'Facebook' }));
  await expect
    .poll(() => linkEvents(page))
    .toEqual([
      { ...envelope(link.sessionId), event: 'connect:ready' },
      { ...envelope(link.sessionId), event: 'connect:success', platform: 'facebook' },
    ]);
  // Every message came from the hosted page's origin, in its frame; the stored account is really there.
  for (const message of await received(page)) {
    expect(message.origin).toBe(h.svc.url);
    expect(message.fromLink).toBe(true);
  }
  const session = await h.svc.client.getLinkSession(link.sessionId);
  expect(session.completedNetworks).toEqual(['facebook']);
  // The token left the address bar and is never in a message or the service log.
  const token = new URL(link.url).searchParams.get('session')!;
  // The framed page may keep it in the fragment when the browser denies it storage (never sent to a server).
  const frameUrl = new URL(page.frames().find((f) => f.url().startsWith(h.svc.url))!.url());
  expect(frameUrl.pathname + frameUrl.search).not.toContain(token);
  expect(JSON.stringify(await received(page))).not.toContain(token);
  expect(h.svc.logLines.join('\n')).not.toContain(token);
});

test('popup mode: a denied consent posts connect:cancelled with reason denied to the opener', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['linkedin'] });
  const linkPage = await openInPopup(page, h.integrator, link.url);
  await expect(networkRow(linkPage, 'linkedin')).toContainText(t('notConnected'));
  const oauthWindow = await startConnect(context, linkPage, 'LinkedIn');
  await answerConsent(oauthWindow, 'Deny');
  await expect(linkPage.locator('main')).toContainText(t('denied', { network: 'LinkedIn' }));
  await expect
    .poll(() => linkEvents(page))
    .toEqual([
      { ...envelope(link.sessionId), event: 'connect:ready' },
      { ...envelope(link.sessionId), event: 'connect:cancelled', platform: 'linkedin', reason: 'denied' },
    ]);
  await expect(networkRow(linkPage, 'linkedin')).toContainText(t('notConnected'));
  expect((await h.svc.client.getLinkSession(link.sessionId)).completedNetworks).toEqual([]);
});

test('an error from the network posts connect:error with code 513 and a message', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['youtube'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  const oauthWindow = await startConnect(context, frame, 'YouTube');
  await answerConsent(oauthWindow, 'Simulate a network error');
  await expect(frame.locator('main')).toContainText(t('failed', { network: 'YouTube', message: '' }).split(':')[0]!);
  await expect.poll(async () => (await linkEvents(page)).filter((m) => m.event !== 'connect:ready')).toHaveLength(1);
  const [outcome] = (await linkEvents(page)).filter((m) => m.event !== 'connect:ready');
  expect(outcome).toMatchObject({ ...envelope(link.sessionId), event: 'connect:error', platform: 'youtube', code: 513 });
  expect(typeof outcome!.message).toBe('string');
  expect(String(outcome!.message).length).toBeGreaterThan(5);
});

test('a refused code exchange posts connect:error (513, or 512 from the callback)', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['tiktok'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  const oauthWindow = await startConnect(context, frame, 'TikTok');
  await answerConsent(oauthWindow, 'Simulate a refused code exchange');
  await expect.poll(async () => (await linkEvents(page)).filter((m) => m.event !== 'connect:ready')).toHaveLength(1);
  const [outcome] = (await linkEvents(page)).filter((m) => m.event !== 'connect:ready');
  expect(outcome).toMatchObject({ event: 'connect:error', platform: 'tiktok' });
  expect([512, 513]).toContain(outcome!.code);
  expect((await h.svc.client.getLinkSession(link.sessionId)).completedNetworks).toEqual([]);
});

test('reload mid-flow (popup mode): the page reloads without the token in its URL and still reports the connection', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['reddit'] });
  const linkPage = await openInPopup(page, h.integrator, link.url);
  await expect(networkRow(linkPage, 'reddit')).toContainText(t('notConnected'));
  // The rows are in the page's HTML; the script takes the token out of the address a moment later.
  await expect(linkPage).not.toHaveURL(/session=/);
  const oauthWindow = await startConnect(context, linkPage, 'Reddit');

  await linkPage.reload();
  expect(linkPage.url()).not.toContain('session=');
  await expect(networkRow(linkPage, 'reddit')).toContainText(t('notConnected'));

  await answerConsent(oauthWindow, 'Allow');
  await expect(networkRow(linkPage, 'reddit')).toContainText(t('connected'), { timeout: 12_000 });
  expect((await h.svc.client.getLinkSession(link.sessionId)).completedNetworks).toEqual(['reddit']);
  await expect
    .poll(async () => (await linkEvents(page)).filter((m) => m.event === 'connect:success'), { timeout: 12_000 })
    .toEqual([{ ...envelope(link.sessionId), event: 'connect:success', platform: 'reddit' }]);
});

test('reload in frame mode: the framed page comes back (frame-ancestors from the session id, credential kept)', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['reddit'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(networkRow(frame, 'reddit')).toBeVisible();
  const hosted = page.frames().find((f) => f.url().startsWith(h.svc.url))!;
  await expect.poll(() => hosted.url()).not.toContain('session=');
  await hosted.evaluate(() => location.reload());
  await expect(networkRow(frame, 'reddit')).toBeVisible();
  await expect(frame.getByRole('heading', { name: t('heading') })).toBeVisible();
});

test('expiry mid-flow: the page shows the expired state, posts connect:cancelled expired, and nothing is stored', async ({ page, context, harness: h }) => {
  await context.clock.install();
  const link = await createLink(h, { expiresIn: 2, allowedSocial: ['threads'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(networkRow(frame, 'threads')).toContainText(t('notConnected'));
  const oauthWindow = await startConnect(context, frame, 'Threads');

  h.svc.clock.advance(2 * 60_000 + 1000);
  await context.clock.fastForward(2 * 60_000 + 1000);
  await expect(frame.getByRole('heading', { name: t('expiredTitle') })).toBeVisible();
  await expect
    .poll(async () => (await linkEvents(page)).filter((m) => m.event !== 'connect:ready'))
    .toEqual([{ ...envelope(link.sessionId), event: 'connect:cancelled', reason: 'expired' }]);

  // Finishing in the network's window afterwards changes nothing.
  if (!oauthWindow.isClosed()) {
    await oauthWindow.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(oauthWindow.locator('body')).toHaveAttribute('data-outcome', 'error');
  }
  expect((await h.svc.client.getLinkSession(link.sessionId)).completedNetworks).toEqual([]);
  expect((await linkEvents(page)).filter((m) => m.event !== 'connect:ready')).toHaveLength(1);
});

test('revocation mid-flow: the callback stores nothing, the page shows the link as ended and posts connect:cancelled revoked', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['gmb'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await expect(networkRow(frame, 'gmb')).toContainText(t('notConnected'));
  const oauthWindow = await startConnect(context, frame, 'Google Business Profile');
  await h.svc.client.revokeLinkSession(link.sessionId);
  await answerConsent(oauthWindow, 'Allow');

  await expect(frame.getByRole('heading', { name: /no longer valid|expired/ })).toBeVisible({ timeout: 10_000 });
  await expect
    .poll(async () => (await linkEvents(page)).filter((m) => m.event !== 'connect:ready'))
    .toEqual([{ ...envelope(link.sessionId), event: 'connect:cancelled', reason: 'revoked' }]);
  expect((await h.svc.client.getLinkSession(link.sessionId)).completedNetworks).toEqual([]);
  expect(await h.svc.storage.findSocialAccount(h.svc.primaryProfile.id, 'gmb')).toBeNull();
});

test('disconnect: a linked network can be disconnected from the page', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['snapchat'] });
  const frame = await openInFrame(page, h.integrator, link.url);
  await answerConsent(await startConnect(context, frame, 'Snapchat'), 'Allow');
  await expect(networkRow(frame, 'snapchat')).toContainText(t('connected'));
  await frame.getByRole('button', { name: 'Disconnect Snapchat' }).click();
  // Disconnecting asks once more; the confirming button has the focus.
  const confirm = networkRow(frame, 'snapchat').getByRole('group').getByRole('button', { name: t('disconnect') });
  await expect(confirm).toBeFocused();
  await confirm.click();
  await expect(networkRow(frame, 'snapchat')).toContainText(t('notConnected'));
  // The integrator hears of it, so its page never shows a stale account.
  await expect.poll(async () => (await linkEvents(page)).filter((m) => m.event === 'connect:disconnected')).toEqual([
    { ...envelope(link.sessionId), event: 'connect:disconnected', platform: 'snapchat' },
  ]);
  expect(await h.svc.storage.findSocialAccount(h.svc.primaryProfile.id, 'snapchat')).toBeNull();
  await expect(frame.getByRole('button', { name: 'Connect Snapchat' })).toBeEnabled();
});

test('another origin that opens the link in a popup receives no message at all, even after a connection', async ({ page, context, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['instagram'] });
  const linkPage = await openInPopup(page, h.thirdOrigin, link.url);
  await expect(networkRow(linkPage, 'instagram')).toContainText(t('notConnected'));
  await answerConsent(await startConnect(context, linkPage, 'Instagram'), 'Allow');
  await expect(networkRow(linkPage, 'instagram')).toContainText(t('connected'));
  // Leaving the page (Escape) is an outcome too; the page may already have closed itself after the success.
  await linkPage.keyboard.press('Escape').catch(() => undefined);
  await page.waitForTimeout(500);
  expect(await received(page)).toEqual([]);
});

test('another origin cannot frame the link (frame-ancestors), and receives nothing', async ({ page, harness: h }) => {
  const link = await createLink(h, { allowedSocial: ['instagram'] });
  await openInFrame(page, h.thirdOrigin, link.url);
  // Chromium replaces a frame refused by CSP frame-ancestors with its error document: waited for (a loaded machine
  // may take more than the fixed second this once waited), then nothing was received.
  await expect
    .poll(() => page.frames().filter((f) => f !== page.mainFrame()).map((f) => f.url()), { timeout: 15_000 })
    .toEqual(['chrome-error://chromewebdata/']);
  expect(await received(page)).toEqual([]);
});

test('a link with no origin posts nothing', async ({ page, context, harness: h }) => {
  const link = await h.svc.client.createLinkSession({ allowedSocial: ['pinterest'] });
  const linkPage = await openInPopup(page, h.integrator, link.url);
  await expect(networkRow(linkPage, 'pinterest')).toContainText(t('notConnected'));
  await answerConsent(await startConnect(context, linkPage, 'Pinterest'), 'Allow');
  await expect(networkRow(linkPage, 'pinterest')).toContainText(t('connected'));
  await page.waitForTimeout(300);
  expect(await received(page)).toEqual([]);
});
