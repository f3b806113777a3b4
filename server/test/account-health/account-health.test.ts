/**
 * Account health on a real service on loopback (SQLite, or PostgreSQL with TEST_DATABASE_URL), the sandbox OAuth
 * server's refresh switches and a real HTTPS webhook receiver, on the service clock:
 * - every linked account shows its health on `GET /api/user` and `GET /api/profiles/health`;
 * - 48 hours of transient refresh failures: degraded, then healthy, never needs_relink; one `account.recovered`;
 *   a post due during the outage (its access token still good) and one due after it both publish;
 * - one invalid_grant: exactly one `account.needs_relink` and one pre-flight warning for the next scheduled post;
 *   relinking the same network user through the consent screen gives exactly one `account.recovered`;
 * - a renewal granting fewer scopes is a missing scope (needs_relink), shown next to the needed ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AccountHealthWebhookPayload, PreflightWarningPayload, ProfileHealthResponse, UserResponse } from '@social-link-kit/protocol';
import type { TestService } from '../support/test-service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver, closeWithReceiver } from '../webhooks/fixtures.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { HOUR, advance, createProfile, eventsOf, linkThroughConsent, profileHealth, registerWebhooks, setRefreshSwitch, sweepDone } from './fixtures.js';

describe('account health', () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => {
    ({ svc, receiver } = await startWithReceiver(startPublishingService, { PREFLIGHT_MINUTES: '30' }));
    await sweepDone(svc);
  });
  after(() => closeWithReceiver(svc, receiver));

  it('every linked account shows its health on GET /api/user and GET /api/profiles/health', async () => {
    await linkSandboxAccounts(svc, ['twitter']);
    const user = await svc.api('GET', '/user');
    assert.equal(user.status, 200);
    const parsed = UserResponse.parse(user.json);
    const health = parsed.displayNames[0]!.health!;
    assert.equal(health.status, 'healthy');
    assert.equal(health.lastError, null);
    assert.ok(health.nextRefreshAt && Date.parse(health.nextRefreshAt) > svc.clock() && Date.parse(health.nextRefreshAt) <= svc.clock() + 25 * HOUR, 'checked at its time of day, within 25 hours');
    assert.deepEqual(health.scopes.missing, []);
    assert.ok(health.scopes.needed.length > 0);
    const listed = ProfileHealthResponse.parse((await svc.api('GET', '/profiles/health')).json);
    assert.deepEqual(listed.accounts, [health]);
    // The documented client reads the same.
    assert.deepEqual((await svc.client.getAccountHealth()).accounts, [health]);
  });

  it('48 h of transient refresh failures: degraded then healthy, never needs_relink; the scheduled post publishes', async () => {
    const profileKey = await createProfile(svc, 'outage');
    await registerWebhooks(svc, receiver, profileKey);
    await linkSandboxAccounts(svc, ['linkedin'], profileKey);
    const refId = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json.refId as string;
    const accountId = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json.displayNames[0].id as string;
    await setRefreshSwitch(svc, 'linkedin', accountId, { transientMinutes: 48 * 60, transientStatus: 503 });
    const due = new Date(svc.clock() + 50 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: 'Published after the outage', platforms: ['linkedin'], scheduleDate: due }, headers: { 'Profile-Key': profileKey } });
    assert.equal(created.json.status, 'scheduled', JSON.stringify(created.json));

    // A post due in the middle of the outage: the access token still works, so it publishes, and nothing is broken.
    const midway = new Date(svc.clock() + 30 * HOUR).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const during = await svc.api('POST', '/post', { body: { post: 'Published during the outage', platforms: ['linkedin'], scheduleDate: midway }, headers: { 'Profile-Key': profileKey } });
    assert.equal(during.json.status, 'scheduled', JSON.stringify(during.json));
    const seen = new Set<string>();
    const look = async () => {
      const [account] = await profileHealth(svc, profileKey);
      seen.add(account!.status);
    };
    // Looked at an hour before the 48 h outage ends (at its last instant a due retry may already succeed).
    await advance(svc, 47 * HOUR, look);
    assert.ok(seen.has('degraded'), `degraded during the outage (saw ${[...seen].join(', ')})`);
    assert.ok(!seen.has('needs_relink') && !seen.has('revoked'), 'never asked for a relink');
    const [outage] = await profileHealth(svc, profileKey);
    assert.equal(outage!.status, 'degraded');
    assert.equal(outage!.lastError.code, 'unavailable');
    const midwayPost = await waitForPost(svc, during.json.id, (p) => p.status === 'success' || p.status === 'error', { 'Profile-Key': profileKey });
    assert.equal(midwayPost.status, 'success', JSON.stringify(midwayPost));
    // The outage ends; backoff brings the next try within hours.
    await advance(svc, 8 * HOUR, look);
    const [recovered] = await profileHealth(svc, profileKey);
    assert.equal(recovered!.status, 'healthy', JSON.stringify(recovered) + svc.logLines.filter((l) => /refresh|health/.test(l)).join('\n'));
    assert.ok(Date.parse(recovered!.lastRefreshedAt) > Date.parse(due) - 6 * HOUR);

    const post = await waitForPost(svc, created.json.id, (p) => p.status === 'success' || p.status === 'error', { 'Profile-Key': profileKey });
    assert.equal(post.status, 'success', JSON.stringify(post));
    await receiver.waitFor((hook) => JSON.parse(hook.body).event === 'account.recovered' && JSON.parse(hook.body).refId === refId);
    const events = eventsOf(receiver, refId);
    assert.deepEqual(
      events.map((event) => [event.event, event.after]),
      [['account.recovered', 'transient_cleared']],
    );
    AccountHealthWebhookPayload.parse(events[0]);
  });

  it('one invalid_grant: one account.needs_relink, one pre-flight warning; a relink of the same user: one account.recovered', async () => {
    const profileKey = await createProfile(svc, 'revoked');
    await registerWebhooks(svc, receiver, profileKey);
    const { login } = await linkThroughConsent(svc, profileKey, 'linkedin');
    const user = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json;
    const [refId, accountId] = [user.refId as string, user.displayNames[0].id as string];
    await setRefreshSwitch(svc, 'linkedin', accountId, { invalidGrant: true });
    const due = new Date(svc.clock() + 25 * HOUR + 20 * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const created = await svc.api('POST', '/post', { body: { post: 'Needs its account back', platforms: ['linkedin'], scheduleDate: due }, headers: { 'Profile-Key': profileKey } });
    assert.equal(created.json.status, 'scheduled', JSON.stringify(created.json));
    // The daily renewal meets invalid_grant within a day; the pre-flight comes 30 minutes before the post.
    await advance(svc, 25 * HOUR);
    const [account] = await profileHealth(svc, profileKey);
    assert.equal(account!.status, 'needs_relink');
    assert.equal(account!.lastError.code, 'invalid_grant');
    assert.equal(account!.nextRefreshAt, null);
    await receiver.waitFor((hook) => JSON.parse(hook.body).event === 'preflight.warning' && JSON.parse(hook.body).refId === refId);
    // More days, the post's due time and its failure: still one of each.
    await advance(svc, 30 * HOUR);
    await waitForPost(svc, created.json.id, (p) => p.status === 'error', { 'Profile-Key': profileKey });
    let events = eventsOf(receiver, refId);
    assert.deepEqual(events.map((event) => event.event).sort(), ['account.needs_relink', 'preflight.warning']);
    const relink = AccountHealthWebhookPayload.parse(events.find((event) => event.event === 'account.needs_relink'));
    assert.equal(relink.event === 'account.needs_relink' && relink.reason, 'invalid_grant');
    assert.deepEqual(relink.event === 'account.needs_relink' && relink.relink.body, { relink: 'linkedin' });
    const warning = PreflightWarningPayload.parse(events.find((event) => event.event === 'preflight.warning'));
    assert.equal(warning.postId, created.json.id);
    assert.equal(warning.accountStatus, 'needs_relink');
    // The event carries a relink URL made when it is sent (the outbox keeps the event without it: a linking URL is a
    // password). Sent again now, it comes with a fresh one that opens the hosted page on that network.
    assert.ok(relink.event === 'account.needs_relink' && relink.relink.url.startsWith(`${svc.url}/link?`));
    const stored = await svc.sql("SELECT payload FROM jobs WHERE kind = 'webhook' AND payload LIKE ?", ['%account.needs_relink%']);
    assert.equal(stored.rows.length, 1);
    assert.ok(!String(stored.rows[0]!.payload).includes('session='), 'no linking URL is stored');
    const redelivered = await svc.api('POST', `/hook/webhook/deliveries/${relink.id}/redeliver`, { headers: { 'Profile-Key': profileKey } });
    assert.equal(redelivered.status, 200, JSON.stringify(redelivered.json));
    const again = await receiver.waitFor((hook) => JSON.parse(hook.body).id === relink.id && JSON.parse(hook.body).relink.url !== (relink as { relink: { url: string } }).relink.url);
    const fresh = AccountHealthWebhookPayload.parse(JSON.parse(again.body));
    assert.ok(fresh.event === 'account.needs_relink' && Date.parse(fresh.relink.expiresAt) > svc.clock());
    const freshView = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${new URL(fresh.relink.url).searchParams.get('session')}` } });
    assert.deepEqual(((await freshView.json()) as { networks: { platform: string }[] }).networks.map((network) => network.platform), ['linkedin']);
    // The integrator may also open another relink session: the hosted page's view shows that network only, and why.
    const session = await svc.api('POST', '/profiles/link-sessions', { body: { relink: 'linkedin' }, headers: { 'Profile-Key': profileKey } });
    const token = new URL(session.json.url as string).searchParams.get('session')!;
    const view = (await (await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { networks: Record<string, unknown>[] };
    assert.deepEqual(
      view.networks.map((network: Record<string, unknown>) => [network.platform, network.linked, network.attention]),
      [['linkedin', true, 'needs_relink']],
    );
    // The person links the same network user again (the sandbox remembers the login, as a network does).
    await setRefreshSwitch(svc, 'linkedin', accountId, {});
    await linkThroughConsent(svc, profileKey, 'linkedin', { login, sessionBody: { relink: 'linkedin' } });
    const relinked = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json;
    assert.equal(relinked.displayNames[0].id, accountId, 'the same network user');
    assert.equal(relinked.displayNames[0].health.status, 'healthy');
    await receiver.waitFor((hook) => JSON.parse(hook.body).event === 'account.recovered' && JSON.parse(hook.body).refId === refId);
    await advance(svc, 2 * HOUR);
    events = eventsOf(receiver, refId);
    assert.deepEqual(
      events.filter((event) => event.event === 'account.recovered').map((event) => event.after),
      ['relinked'],
    );
  });

  it('a relink session names one network: anything else is refused with the envelope', async () => {
    for (const body of [{ relink: 'myspace' }, { relink: ['linkedin'] }, { relink: 'linkedin', allowedSocial: ['twitter'] }]) {
      const refused = await svc.api('POST', '/profiles/link-sessions', { body });
      assert.equal(refused.status, 400, JSON.stringify(refused.json));
      assert.deepEqual([refused.json.status, refused.json.action, refused.json.code], ['error', 'link session', 101]);
    }
    const both = await svc.api('POST', '/profiles/link-sessions', { body: { relink: 'linkedin', allowedSocial: ['twitter', 'linkedin'] } });
    assert.equal(both.status, 200, JSON.stringify(both.json));
  });

  it('a renewal granting fewer scopes than publishing needs is a missing scope: needs_relink, shown next to the needed ones', async () => {
    const profileKey = await createProfile(svc, 'narrowed');
    await linkSandboxAccounts(svc, ['youtube'], profileKey);
    const accountId = (await svc.api('GET', '/user', { headers: { 'Profile-Key': profileKey } })).json.displayNames[0].id as string;
    await setRefreshSwitch(svc, 'youtube', accountId, { grantScopes: ['openid'] });
    await advance(svc, 25 * HOUR);
    const [account] = await profileHealth(svc, profileKey);
    assert.equal(account!.status, 'needs_relink', JSON.stringify(account));
    assert.equal(account!.lastError.code, 'missing_scope');
    assert.deepEqual(account!.scopes.granted, ['openid']);
    assert.deepEqual(account!.scopes.missing, account!.scopes.needed.filter((scope: string) => scope !== 'openid'));
  });
});
