/**
 * The real gmb adapter against the sandbox Business Profile APIs of a real service on loopback, through
 * `POST /api/post`: the location found through the account and location APIs, a standard post with a photo, event
 * and offer posts with Google's own fields, `gmbOptions` checked at create time (101, platform and field named),
 * 519 refused but the account left connected, 401 relink, reconcile by the location's local posts, delete; and
 * Google's recorded error bodies classified one by one. Accounts linked through the consent page (OAuth) publish
 * to gmb and snapchat as well.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedState, PublishDone } from '../../src/networks/publish-adapter.js';
import { classifyGmbError, classifyGmbRefresh } from '../../src/networks/gmb/classify.js';
import type { GoogleAnswer } from '../../src/networks/gmb/google-api.js';
import { googleUrl } from '../../src/networks/gmb/google-api.js';
import { gmbPublishAdapter as adapter } from '../../src/networks/gmb/publish.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import { connectAccount } from '../support/oauth-driver.js';
import { tokenOf, type TestService } from '../support/test-service.js';

const EVENT = { title: 'Tasting night', schedule: { startDate: { year: 2027, month: 3, day: 1 }, endDate: { year: 2027, month: 3, day: 2 }, startTime: { hours: 18, minutes: 0 } } };

describe('gmb adapter against the sandbox Business Profile APIs', () => {
  let svc: TestService;
  let n = 0;
  const fresh = (text: string) => `${text} #${++n}`;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['gmb']);
  });
  after(() => svc.close());

  const post = (body: Record<string, unknown>) => svc.api('POST', '/post', { body: { platforms: ['gmb'], ...body } });
  const recordOf = async (id: string) => JSON.parse((await sandboxPostsFor(svc, id, 'gmb'))[0].record);

  it('a standard post with a photo becomes a live local post of the account\'s location; its URL shows it', async () => {
    const text = fresh('Fresh bread from 7am');
    const photo = `${svc.url}/sandbox/media/photo.jpg`;
    const created = await post({ post: text, mediaUrls: [photo], gmbOptions: { callToAction: { actionType: 'ORDER', url: 'https://example.com/order' } } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const entry = created.json.postIds[0];
    assert.match(entry.id, /^accounts\/\d+\/locations\/\d+\/localPosts\/\d+$/);
    const record = await recordOf(created.json.id);
    assert.deepEqual([record.summary, record.topicType, record.callToAction], [text, 'STANDARD', { actionType: 'ORDER', url: 'https://example.com/order' }]);
    assert.equal(record.media.length, 1);
    assert.equal(record.media[0].mediaFormat, 'PHOTO');
    const page = await fetch(entry.postUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /Fresh bread from 7am/);
  });

  it('event and offer posts carry Google\'s event, offer and topic fields', async () => {
    const event = await post({ post: fresh('Join us'), gmbOptions: { topicType: 'EVENT', event: EVENT, callToAction: { actionType: 'SIGN_UP', url: 'https://example.com/rsvp' } } });
    assert.equal(event.json.status, 'success', JSON.stringify(event.json));
    const eventRecord = await recordOf(event.json.id);
    assert.deepEqual([eventRecord.topicType, eventRecord.event], ['EVENT', EVENT]);
    const offer = await post({ post: fresh('20% off'), gmbOptions: { event: EVENT, offer: { couponCode: 'SPRING20', redeemOnlineUrl: 'https://example.com/shop', termsConditions: 'One per customer' } } });
    assert.equal(offer.json.status, 'success', JSON.stringify(offer.json));
    const offerRecord = await recordOf(offer.json.id);
    assert.deepEqual([offerRecord.topicType, offerRecord.offer.couponCode], ['OFFER', 'SPRING20']);
    // isVideo speaks of the request's media; gmb given none publishes its text.
    const textOnly = await post({ post: fresh('Open late tonight'), isVideo: true });
    assert.equal(textOnly.json.status, 'success', JSON.stringify(textOnly.json));
  });

  it('bad gmbOptions, video and too many photos are refused at create time with the platform named; a scheduled post is not created', async () => {
    const cases: [Record<string, unknown>, number, string | undefined][] = [
      [{ gmbOptions: { topicType: 'ALERT' } }, 101, 'gmbOptions.topicType'],
      [{ gmbOptions: { topicType: 'EVENT' } }, 101, 'gmbOptions.event'],
      [{ gmbOptions: { callToAction: { actionType: 'VISIT', url: 'https://example.com' } } }, 101, 'gmbOptions.callToAction.actionType'],
      [{ gmbOptions: { callToAction: { actionType: 'BOOK', url: 42 } } }, 101, 'gmbOptions.callToAction.url'],
      [{ gmbOptions: { event: { ...EVENT, title: 'x'.repeat(59) } } }, 101, 'gmbOptions.event.title'],
      [{ gmbOptions: { event: { title: 'T', schedule: { startDate: { year: 2027, month: 3, day: 2 }, endDate: { year: 2027, month: 3, day: 1 } } } } }, 101, 'gmbOptions.event.schedule.endDate'],
      [{ gmbOptions: { offer: { couponCode: 5 }, event: EVENT } }, 101, 'gmbOptions.offer'],
      [{ gmbOptions: { colour: 'red' } }, 101, 'gmbOptions'],
      [{ mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true }, 164, undefined],
    ];
    const before = (await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n;
    for (const [extra, code, field] of cases) {
      const answer = await post({ post: fresh('bad'), scheduleDate: '2027-01-01T10:00:00Z', ...extra });
      assert.equal(answer.status, 400, JSON.stringify(answer.json));
      assert.equal(answer.json.code, code, JSON.stringify(answer.json));
      assert.match(answer.json.message, /gmb/);
      for (const key of ['status', 'action', 'code', 'message', 'details']) assert.ok(key in answer.json, key);
      if (field) assert.match(JSON.stringify(answer.json.details), new RegExp(field.replace(/\./g, '\\.')), JSON.stringify(answer.json));
    }
    assert.equal((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n, before);
  });

  it('519: the post fails, retryable, and the account stays connected (no relink); a 401 that survives the renewal does not advise relinking', async () => {
    const refused = await post({ post: fresh('auth backend down [[fault:519]]') });
    const failed = await waitForPost(svc, refused.json.id, (p) => p.status === 'error');
    const error = failed.errors.find((entry: { platform: string }) => entry.platform === 'gmb');
    assert.deepEqual([error.code, error.retryAvailable, error.relink], [519, true, undefined], JSON.stringify(error));
    assert.ok(await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'gmb'));
    const after519 = await post({ post: fresh('still connected') });
    assert.equal(after519.json.status, 'success', JSON.stringify(after519.json));

    // The marker refuses every token, the one just renewed too: a new link would be refused the same way.
    const refusedAgain = await post({ post: fresh('refused [[fault:401]]') });
    const refusedError = (await waitForPost(svc, refusedAgain.json.id, (p) => p.status === 'error')).errors[0];
    assert.deepEqual([refusedError.code, refusedError.relink, refusedError.details?.renewedTokenRefused], [401, undefined, true], JSON.stringify(refusedError));
    assert.match(refusedError.message, /linking the account again will not help/);
    assert.doesNotMatch(refusedError.message, /link the account again\./);
  });

  it('reconcile finds the local post an interrupted commit made, and nothing when the commit never ran; remove deletes it', async () => {
    const linked = await linkSandboxAccount(svc, 'gmb');
    const base = `${svc.url}/sandbox/gmb`;
    const ctx = linked.context(base, { text: fresh('made before the crash') });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.match(String(prepared.location), /^accounts\/\d+\/locations\/\d+$/);
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    assert.equal(((await adapter.reconcile(ctx, prepared)) as PublishDone).id, done.id);
    const never = linked.context(base, { text: fresh('never sent') });
    assert.equal(await adapter.reconcile(never, (await adapter.prepare(never, null)) as PreparedState), null);
    assert.equal(await adapter.remove!(ctx, done.id), true);
    assert.equal(await adapter.reconcile(ctx, prepared), null);
  });

  it('another account\'s location is refused (403 PERMISSION_DENIED → 101), and DELETE /api/post deletes on gmb', async () => {
    const linked = await linkSandboxAccount(svc, 'gmb');
    const other = await linkSandboxAccount(svc, 'gmb');
    const ctx = linked.context(`${svc.url}/sandbox/gmb`, { text: fresh('not mine') });
    const prepared = (await adapter.prepare(other.context(`${svc.url}/sandbox/gmb`, { text: 'x' }), null)) as PreparedState;
    const refused = await adapter.commit(ctx, prepared);
    assert.deepEqual(refused.kind === 'failed' && [refused.code, refused.relink], [101, false]);

    const created = await post({ post: fresh('to delete') });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.equal((await svc.api('DELETE', '/post', { body: { id: created.json.id } })).status, 200);
    const [row] = await sandboxPostsFor(svc, created.json.id, 'gmb');
    assert.notEqual(row.deleted_at, null);
  });

  it('the real base maps each Business Profile service to its own Google host', () => {
    const real = { baseUrl: 'https://mybusiness.googleapis.com' };
    assert.equal(googleUrl(real, 'mybusinessaccountmanagement', '/v1/accounts'), 'https://mybusinessaccountmanagement.googleapis.com/v1/accounts');
    assert.equal(googleUrl(real, 'mybusiness', '/v4/accounts/1/locations/2/localPosts'), 'https://mybusiness.googleapis.com/v4/accounts/1/locations/2/localPosts');
    assert.equal(googleUrl({ baseUrl: 'http://127.0.0.1:1/sandbox/gmb' }, 'mybusinessbusinessinformation', '/v1/x'), 'http://127.0.0.1:1/sandbox/gmb/mybusinessbusinessinformation/v1/x');
  });
});

describe('gmb and snapchat accounts linked through the sandbox consent page (OAuth) publish too', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
  });
  after(() => svc.close());

  it('the sandbox APIs take the authorization server\'s tokens and address the account by its subject', async () => {
    const token = tokenOf((await svc.client.createLinkSession({ origin: 'https://app.example' })).url);
    for (const platform of ['gmb', 'snapchat'] as const) assert.equal((await connectAccount(svc, token, platform)).data.outcome, 'success', platform);
    const created = await svc.api('POST', '/post', { body: { post: 'linked in a browser', platforms: ['gmb', 'snapchat'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    assert.deepEqual(created.json.postIds.map((entry: { platform: string }) => entry.platform).sort(), ['gmb', 'snapchat']);
  });
});

describe('classifyGmbError on recorded Google error bodies', () => {
  const answer = (status: number, error: Record<string, unknown>): GoogleAnswer => ({ status, json: { error }, headers: new Headers() });
  it('maps each body to its code', () => {
    const cases: [GoogleAnswer, number, boolean, boolean][] = [
      [answer(503, { code: 503, message: 'Authentication backend unavailable.', status: 'UNAVAILABLE' }), 519, true, false],
      [answer(401, { code: 401, message: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.', status: 'UNAUTHENTICATED' }), 401, false, true],
      [answer(403, { code: 403, message: 'The caller does not have permission', status: 'PERMISSION_DENIED' }), 101, false, false],
      [answer(403, { code: 403, message: 'Google My Business API has not been used in project 123 before or it is disabled.', status: 'PERMISSION_DENIED' }), 101, false, false],
      [answer(429, { code: 429, message: "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'mybusiness.googleapis.com' for consumer 'project_number:123'.", status: 'RESOURCE_EXHAUSTED' }), 429, true, false],
      [answer(500, { code: 500, message: 'Internal error encountered.', status: 'INTERNAL' }), 500, true, false],
      [answer(503, { code: 503, message: 'The service is currently unavailable.', status: 'UNAVAILABLE' }), 500, true, false],
      [answer(404, { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' }), 186, false, false],
      [
        answer(400, {
          code: 400,
          message: 'Request contains an invalid argument.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: [{ code: 3, field: 'media.source_url', message: 'Photo is too small.' }] }],
        }),
        164,
        false,
        false,
      ],
      [
        answer(400, {
          code: 400,
          message: 'Request contains an invalid argument.',
          status: 'INVALID_ARGUMENT',
          details: [{ '@type': 'type.googleapis.com/google.mybusiness.v4.ValidationError', errorDetails: [{ code: 3, field: 'summary', message: 'Summary contains a phone number.' }] }],
        }),
        101,
        false,
        false,
      ],
      [{ status: 0, json: {}, headers: new Headers(), transportError: 'socket hang up' }, 500, true, false],
    ];
    for (const [input, code, retry, relink] of cases) {
      const failure = classifyGmbError(input);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [code, retry, relink], JSON.stringify(input.json));
    }
  });

  it('token refresh: temporarily unavailable → 519 with the account connected; invalid_grant → relink', () => {
    for (const [status, body] of [
      [503, { error: 'temporarily_unavailable', error_description: 'The authorization server is temporarily unavailable.' }],
      [500, { error: 'server_error' }],
      [0, {}],
    ] as const) {
      const failure = classifyGmbRefresh(status, body);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [519, true, false], JSON.stringify(body));
    }
    const revoked = classifyGmbRefresh(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
    assert.deepEqual([revoked.code, revoked.retryAvailable, revoked.relink], [401, false, true]);
  });
});
