/**
 * The journey of a relink, in Chromium, as a person walks it: a LinkedIn account linked on the hosted page, whose
 * renewal the network then refuses (invalid_grant, the sandbox switch), shows on a relink session's page why it needs attention;
 * Reconnect and "continue as" the same sandbox user bring it back healthy, said as a plain success (same account).
 */
import { expect, test } from '../support/fixtures.js';
import { ENGLISH_TEXTS } from '../../../hosted/src/texts.js';
import { answerConsent, createLink, networkRow, openInPopup, startConnect } from '../hosted/harness.js';

const { t } = ENGLISH_TEXTS;
const HOUR = 3_600_000;

test('relink: the page says why LinkedIn needs attention; reconnecting the same account makes it healthy again', async ({ page, context, harness: h }) => {
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

  const relink = await createLink(h, { relink: 'linkedin' });
  const relinkPage = await openInPopup(page, h.integrator, relink.url);
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
