/**
 * The journey of a relink, in Chromium, as a person walks it: a LinkedIn account linked on the hosted page, whose
 * renewal the network then refuses (invalid_grant, the sandbox switch), shows on a relink session's page why it needs attention;
 * the `account.needs_relink` webhook (on the sandbox inbox) carries a fresh link to that page; reconnect and
 * "continue as" the same sandbox user bring it back healthy, said as a plain success (same account).
 */
import { expect, test } from '../support/fixtures.js';
import { ENGLISH_TEXTS } from '../../../hosted/src/texts.js';
import { answerConsent, createLink, networkRow, openInPopup, startConnect } from '../hosted/harness.js';

const { t } = ENGLISH_TEXTS;
const HOUR = 3_600_000;

test('relink: the page says why LinkedIn needs attention; reconnecting the same account makes it healthy again', async ({ page, context, harness: h }) => {
  // The integrator listens on the sandbox webhook inbox for the profile's account events.
  const { url: inbox } = await h.svc.client.sandboxWebhookInboxUrl();
  await h.svc.client.registerWebhook({ action: 'social', url: inbox, secret: 'journey-relink-secret-0123456789' });
  const first = await createLink(h, { allowedSocial: ['linkedin'] });
  const linkPage = await openInPopup(page, h.integrator, first.url);
  await answerConsent(await startConnect(context, linkPage, 'LinkedIn'), 'Allow');
  await expect(linkPage.locator('main')).toContainText(t('linked', { network: 'LinkedIn' }));
  await linkPage.close();

  const health = async () => (await h.svc.api('GET', '/profiles/health')).json.accounts[0];
  const accountId = (await h.svc.client.getUser()).displayNames[0]!.id;
  const switchTo = async (body: Record<string, unknown>) => {
    const answer = await fetch(`${h.svc.url}/sandbox/net/linkedin/accounts/${accountId}/refresh-switch`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${h.svc.apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(200);
  };
  // The network refuses the grant; the daily renewal (within a day) meets it.
  await switchTo({ invalidGrant: true });
  h.svc.clock.advance(25 * HOUR);
  await expect.poll(async () => (await health()).status, { timeout: 15_000 }).toBe('needs_relink');
  await switchTo({});

  // The account.needs_relink event brings a fresh link for that network; the person opens it.
  const relinkUrlInInbox = async () => {
    const { deliveries } = await h.svc.client.readSandboxWebhookInbox();
    const events = deliveries.map((delivery) => JSON.parse(delivery.body) as { event?: string; relink?: { url?: string } });
    return events.find((event) => event.event === 'account.needs_relink')?.relink?.url ?? null;
  };
  await expect.poll(relinkUrlInInbox, { timeout: 15_000 }).not.toBeNull();
  const relinkPage = await openInPopup(page, h.integrator, (await relinkUrlInInbox())!);
  const row = networkRow(relinkPage, 'linkedin');
  await expect(relinkPage.locator('li[data-platform]')).toHaveCount(1);
  await expect(row).toContainText(t('attentionRelink', { network: 'LinkedIn' }));
  const [consent] = await Promise.all([context.waitForEvent('page'), row.getByRole('button', { name: t('reconnectLabel', { network: 'LinkedIn' }), exact: true }).click()]);
  await consent.waitForLoadState();
  const closed = consent.waitForEvent('close', { timeout: 10_000 }).catch(() => null);
  await consent.getByRole('button', { name: /^Continue as / }).click();
  await closed;
  await expect(relinkPage.locator('main')).toContainText(t('linked', { network: 'LinkedIn' }));
  await expect(row.locator('.attention-note')).toHaveCount(0);
  expect((await h.svc.client.getUser()).displayNames[0]!.id).toBe(accountId);
  expect((await health()).status).toBe('healthy');
});
