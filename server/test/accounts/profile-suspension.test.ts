/**
 * Spec 7, code 249: "a repeat violation unlinks the account and suspends the user profile". Through the public API
 * on the real service (loopback HTTP, real database, the facebook sandbox answering 249 for `[[fault:249]]`): a
 * second block of the same account within 30 days unlinks it and suspends the profile, with the `social` unlink
 * and the `suspended` webhooks; a suspended profile publishes and links nothing (403, code 105); the Primary Profile
 * lifts it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { tokenOf } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkThroughConsent } from '../account-health/fixtures.js';
import { FAST_DELIVERY } from '../webhooks/fixtures.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { callback, runUntilCallback } from '../support/oauth-driver.js';

const DAY = 24 * 60 * 60 * 1000;
const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

let svc: TestService;
let receiver: WebhookReceiver;
let n = 0;
before(async () => {
  receiver = await startWebhookReceiver();
  svc = await startPublishingService({ env: { ...FAST_DELIVERY, ...receiver.serviceEnv } });
});
after(async () => {
  await svc.close();
  await receiver.close();
});

/** A user profile with facebook and linkedin linked and both webhooks registered; its headers and refId. */
async function userProfile(title: string) {
  const created = await svc.client.createProfile(title);
  const headers = { 'Profile-Key': created.profileKey };
  // Linked as a person does, on the consent screen: the tokens are the network's own (hour-long, traded or renewed).
  for (const platform of ['facebook', 'linkedin'] as const) await linkThroughConsent(svc, created.profileKey, platform);
  for (const action of ['social', 'suspended']) {
    const registered = await svc.api('POST', '/hook/webhook', { body: { action, url: receiver.url }, headers });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  }
  return { headers, refId: created.refId };
}

async function blockedPost(headers: Record<string, string>) {
  const created = await svc.api('POST', '/post', { body: { post: `Blocked post ${++n} of ${'xyzw'.slice(n % 4)}${n * 104729} [[fault:249]]`, platforms: ['facebook'] }, headers });
  assert.equal(created.json.code, 249, JSON.stringify(created.json));
  assert.equal(created.status, 400);
  return created.json;
}

const webhooksOf = (refId: string, action: string) => receiver.received.map((w) => JSON.parse(w.body)).filter((body) => body.refId === refId && body.action === action);

describe('249 repeat violation: the profile is suspended', () => {
  let profile: Awaited<ReturnType<typeof userProfile>>;
  let scheduledId: string;
  let sessionToken: string;
  let pendingConnect: Awaited<ReturnType<typeof runUntilCallback>>;

  before(async () => {
    profile = await userProfile('Repeat offender');
  });

  test('one block: the account stays linked and the profile is not suspended', async () => {
    // A post due in 20 days, used below.
    const scheduled = await svc.api('POST', '/post', { body: { post: 'Due later on linkedin', platforms: ['linkedin'], scheduleDate: isoSeconds(svc.clock() + 20 * DAY) }, headers: profile.headers });
    assert.equal(scheduled.json.status, 'scheduled', JSON.stringify(scheduled.json));
    scheduledId = scheduled.json.id;

    await blockedPost(profile.headers);
    const user = await svc.api('GET', '/user', { headers: profile.headers });
    assert.ok(user.json.activeSocialAccounts.includes('facebook'));
    assert.equal(user.json.suspension, undefined);
  });

  test('a second block of the same account within 30 days unlinks it and suspends the profile, with both webhooks', async () => {
    svc.clock.advance(10 * DAY);
    // A link made before the suspension, used below.
    const session = await svc.api('POST', '/profiles/link-sessions', { body: {}, headers: profile.headers });
    sessionToken = tokenOf(session.json.url);
    // A sign-in started before the suspension, finished after it (below).
    pendingConnect = await runUntilCallback(svc, sessionToken, 'reddit');
    await blockedPost(profile.headers);
    const user = await svc.api('GET', '/user', { headers: profile.headers });
    assert.deepEqual(user.json.activeSocialAccounts, ['linkedin']);
    assert.equal(user.json.suspension.code, 249);
    assert.equal(user.json.suspension.platform, 'facebook');
    assert.equal(user.json.suspension.since, new Date(svc.clock()).toISOString());
    const listed = await svc.api('GET', '/profiles');
    assert.equal(listed.json.profiles.find((p: any) => p.refId === profile.refId).suspension.code, 249);

    await receiver.waitFor((w) => JSON.parse(w.body).action === 'suspended' && JSON.parse(w.body).refId === profile.refId);
    const [suspended] = webhooksOf(profile.refId, 'suspended');
    assert.deepEqual([suspended.event, suspended.code, suspended.platform], ['suspended', 249, 'facebook']);
    await receiver.waitFor((w) => JSON.parse(w.body).event === 'unlink' && JSON.parse(w.body).refId === profile.refId);
    assert.deepEqual(webhooksOf(profile.refId, 'social').map((w) => [w.event, w.platform]), [['unlink', 'facebook']]);
  });

  test('a suspended profile publishes nothing: create and validate answer 403 with code 105, in the envelope', async () => {
    for (const path of ['/post', '/validate/post']) {
      const refused = await svc.api('POST', path, { body: { post: `Still here ${path}`, platforms: ['linkedin'] }, headers: profile.headers });
      assert.equal(refused.status, 403, JSON.stringify(refused.json));
      assert.deepEqual([refused.json.status, refused.json.action, refused.json.code], ['error', 'post', 105]);
      assert.equal(refused.json.details.suspension.code, 249);
    }
  });

  test('a suspended profile links nothing: new link sessions, connections on an open link and a sign-in under way answer 105', async () => {
    const session = await svc.api('POST', '/profiles/link-sessions', { body: {}, headers: profile.headers });
    assert.deepEqual([session.status, session.json.code, session.json.action], [403, 105, 'link session'], JSON.stringify(session.json));
    const connect = await fetch(`${svc.url}/api/link/connect/facebook`, { method: 'POST', headers: { Authorization: `Bearer ${sessionToken}` } });
    const body = (await connect.json()) as { code: number; status: string };
    assert.deepEqual([connect.status, body.code, body.status], [403, 105, 'error'], JSON.stringify(body));
    const finished = await callback(pendingConnect.callbackUrl, pendingConnect.attempt.cookie);
    assert.deepEqual([finished.data.outcome, finished.data.code], ['error', '105'], JSON.stringify(finished.data));
    assert.ok(!(await svc.api('GET', '/user', { headers: profile.headers })).json.activeSocialAccounts.includes('reddit'));
  });

  test('a scheduled post that comes due while suspended fails with 105 and is not published', async () => {
    svc.clock.advance(11 * DAY);
    const post = await waitForPost(svc, scheduledId, (p) => p.status === 'error', profile.headers);
    assert.equal(post.errors[0].code, 105, JSON.stringify(post));
    assert.equal((await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'linkedin' AND text = 'Due later on linkedin'")).rows[0]!.n, 0);
  });

  test('only the Primary Profile lifts it; then publishing works again and a `lifted` webhook is sent', async () => {
    const asProfile = await svc.api('PATCH', '/profiles', { body: { refId: profile.refId, suspended: false }, headers: profile.headers });
    assert.deepEqual([asProfile.status, asProfile.json.code], [400, 101], JSON.stringify(asProfile.json));
    const suspend = await svc.api('PATCH', '/profiles', { body: { refId: profile.refId, suspended: true } });
    assert.deepEqual([suspend.status, suspend.json.code], [400, 101]);
    const unknown = await svc.api('PATCH', '/profiles', { body: { refId: 'nope', suspended: false } });
    assert.deepEqual([unknown.status, unknown.json.code], [404, 101]);

    // The documented client's call, as an integrator's backend makes it.
    assert.deepEqual(await svc.client.liftSuspension(profile.refId), { status: 'success', refId: profile.refId, lifted: true });
    const again = await svc.api('PATCH', '/profiles', { body: { refId: profile.refId, suspended: false } });
    assert.equal(again.json.lifted, false);
    assert.equal((await svc.api('GET', '/user', { headers: profile.headers })).json.suspension, undefined);
    const created = await svc.api('POST', '/post', { body: { post: 'Back after the lift', platforms: ['linkedin'] }, headers: profile.headers });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    await receiver.waitFor((w) => JSON.parse(w.body).event === 'lifted' && JSON.parse(w.body).refId === profile.refId);
  });
});

describe('249 blocks that are not a repeat', () => {
  test('two blocks more than 30 days apart do not suspend', async () => {
    const profile = await userProfile('Rare offender');
    await blockedPost(profile.headers);
    svc.clock.advance(31 * DAY);
    await blockedPost(profile.headers);
    const user = await svc.api('GET', '/user', { headers: profile.headers });
    assert.equal(user.json.suspension, undefined);
    assert.ok(user.json.activeSocialAccounts.includes('facebook'));
  });
});
