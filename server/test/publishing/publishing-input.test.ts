/**
 * Bad input on the posts API: every class the issue lists gets a coded 4xx in the spec's envelope, never a 5xx, and
 * nothing is half-created. Plus idempotency (also simultaneous requests), quota (106) and plan gates.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService();
  await linkSandboxAccounts(svc, ['twitter', 'facebook', 'instagram', 'pinterest']);
});
after(() => svc.close());

const countPosts = async () => Number((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n);

const BAD_BODIES: [string, unknown, number][] = [
  ['post missing', { platforms: ['facebook'] }, 101],
  ['post null', { post: null, platforms: ['facebook'] }, 101],
  ['post a number', { post: 42, platforms: ['facebook'] }, 101],
  ['post object with an unknown platform key', { post: { default: 'x', myspace: 'y' }, platforms: ['facebook'] }, 101],
  ['post over 100,000 characters', { post: 'x'.repeat(100_001), platforms: ['facebook'] }, 101],
  ['platforms missing', { post: 'hello' }, 163],
  ['platforms empty', { post: 'hello', platforms: [] }, 163],
  ['platforms a string', { post: 'hello', platforms: 'facebook' }, 163],
  ['platforms with null', { post: 'hello', platforms: [null] }, 163],
  ['unknown platform', { post: 'hello', platforms: ['myspace'] }, 163],
  ['unknown key', { post: 'hello', platforms: ['facebook'], colour: 'red' }, 101],
  ['scheduleDate malformed', { post: 'hello', platforms: ['facebook'], scheduleDate: '2026-11-23 12:00' }, 101],
  ['scheduleDate with milliseconds', { post: 'hello', platforms: ['facebook'], scheduleDate: '2026-11-23T12:00:00.000Z' }, 101],
  ['scheduleDate with an offset', { post: 'hello', platforms: ['facebook'], scheduleDate: '2026-11-23T12:00:00+01:00' }, 101],
  ['scheduleDate a day that does not exist', { post: 'hello', platforms: ['facebook'], scheduleDate: '2026-02-30T12:00:00Z' }, 101],
  ['scheduleDate far in the future', { post: 'hello', platforms: ['facebook'], scheduleDate: '2999-01-01T00:00:00Z' }, 101],
  ['scheduleDate a number', { post: 'hello', platforms: ['facebook'], scheduleDate: 1795356000000 }, 101],
  ['scheduleDate null', { post: 'hello', platforms: ['facebook'], scheduleDate: null }, 101],
  ['requiresApproval a string', { post: 'hello', platforms: ['facebook'], requiresApproval: 'yes' }, 101],
  ['autoHashtag max 11', { post: 'hello', platforms: ['facebook'], autoHashtag: { max: 11 } }, 101],
  ['autoHashtag unknown key', { post: 'hello', platforms: ['facebook'], autoHashtag: { max: 2, colour: 1 } }, 101],
  ['autoRepost repeat 0', { post: 'hello', platforms: ['facebook'], autoRepost: { repeat: 0, days: 2 } }, 101],
  ['autoRepost days 1', { post: 'hello', platforms: ['facebook'], autoRepost: { repeat: 2, days: 1 } }, 101],
  ['autoRepost huge repeat', { post: 'hello', platforms: ['facebook'], autoRepost: { repeat: 1e308, days: 2 } }, 101],
  ['firstComment without comment', { post: 'hello', platforms: ['facebook'], firstComment: {} }, 101],
  ['firstComment media on a network without it', { post: 'hello', platforms: ['tiktok', 'facebook'], firstComment: { comment: 'x', mediaUrls: ['https://example.com/a.jpg'] } }, 101],
  ['idempotencyKey empty', { post: 'hello', platforms: ['facebook'], idempotencyKey: '' }, 101],
  ['idempotencyKey a number', { post: 'hello', platforms: ['facebook'], idempotencyKey: 7 }, 101],
  ['network options not an object', { post: 'hello', platforms: ['facebook'], instagramOptions: 'stories' }, 101],
  ['mediaUrls a string', { post: 'hello', platforms: ['facebook'], mediaUrls: 'https://example.com/a.jpg' }, 101],
  ['an array body', [1, 2], 101],
];

describe('bad input on POST /api/post', () => {
  for (const [name, body, code] of BAD_BODIES) {
    test(`${name} → ${code}, nothing created`, async () => {
      const before = await countPosts();
      const answer = await svc.api('POST', '/post', { body });
      assert.ok(answer.status >= 400 && answer.status < 500, `${answer.status} ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.status, 'error');
      assert.equal(answer.json.code, code, JSON.stringify(answer.json));
      assert.equal(typeof answer.json.message, 'string');
      assert.equal(typeof answer.json.action, 'string');
      assert.equal(await countPosts(), before);
    });
  }

  test('unknown keys are named in details', async () => {
    const answer = await svc.api('POST', '/post', { body: { post: 'hello', platforms: ['facebook'], colour: 'red', firstComment: { comment: 'x', when: 1 } } });
    assert.deepEqual(answer.json.details.unknownKeys.sort(), ['colour', 'firstComment.when']);
  });

  test('network option rules: a trial reel without graduationStrategy fails instagram (447); bad aiDisclosures is a 521 warning', async () => {
    const reel = await svc.api('POST', '/post', {
      body: { post: 'reel', platforms: ['instagram'], mediaUrls: ['https://example.com/v.mp4'], instagramOptions: { trialParams: {} }, scheduleDate: '2026-11-23T12:00:00Z' },
    });
    assert.equal(reel.status, 400, JSON.stringify(reel.json));
    assert.equal(reel.json.code, 447);
    const pin = await svc.api('POST', '/post', { body: { post: 'a pin with a label', platforms: ['pinterest'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`], pinterestOptions: { aiDisclosures: ['MADE_UP'] } } });
    assert.equal(pin.json.status, 'success', JSON.stringify(pin.json));
    assert.deepEqual(pin.json.postIds[0].warnings, [{ feature: 'pinterestOptions.aiDisclosures', code: 521 }]);
  });

  test('validate/post runs the same checks and creates nothing', async () => {
    const before = await countPosts();
    const ok = await svc.api('POST', '/validate/post', { body: { post: 'just checking', platforms: ['facebook'] } });
    assert.equal(ok.status, 200, JSON.stringify(ok.json));
    const bad = await svc.api('POST', '/validate/post', { body: { post: 'x'.repeat(600), platforms: ['pinterest'] } });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 101);
    assert.equal(await countPosts(), before);
  });

  test('deleting a published post where the network cannot delete says so (instagram)', async () => {
    const created = await svc.api('POST', '/post', { body: { post: 'an instagram caption', platforms: ['instagram', 'facebook'], mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] } });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const removed = await svc.api('DELETE', '/post', { body: { id: created.json.id } });
    assert.deepEqual(removed.json.deletedOn, ['facebook']);
    assert.deepEqual(removed.json.notDeletedOn, ['instagram']);
    assert.match(removed.json.message, /instagram/);
  });

  test('malformed JSON → 101', async () => {
    const answer = await svc.api('POST', '/post', { rawBody: '{"post": ' });
    assert.equal(answer.status, 400);
    assert.equal(answer.json.code, 101);
  });

  test('a 10,000-character text: accepted where the network takes it, a coded error where it does not', async () => {
    const text = 'lorem ipsum '.repeat(834);
    const answer = await svc.api('POST', '/post', { body: { post: text, platforms: ['facebook', 'twitter'] } });
    assert.equal(answer.status, 200, JSON.stringify(answer.json));
    assert.deepEqual(answer.json.postIds.map((p: any) => p.platform), ['facebook']);
    assert.equal(answer.json.errors[0].code, 275);
  });

  test('bad input on PATCH, DELETE, retry and GET', async () => {
    for (const [method, path, body] of [
      ['PATCH', '/post', { id: 'post_nope', colour: 1 }],
      ['PATCH', '/post', { approved: true }],
      ['PATCH', '/post', { id: null }],
      ['DELETE', '/post', {}],
      ['DELETE', '/post', { id: 5 }],
      ['DELETE', '/post', { bulk: [] }],
      ['PUT', '/post/retry', { id: ['x'] }],
    ] as const) {
      const answer = await svc.api(method, path, { body });
      assert.equal(answer.status, 400, `${method} ${JSON.stringify(body)} ${JSON.stringify(answer.json)}`);
      assert.equal(answer.json.code, 101);
    }
    for (const [method, path, body] of [
      ['GET', '/post/post_nope', undefined],
      ['PATCH', '/post', { id: 'post_nope', notes: 'x' }],
      ['PUT', '/post/retry', { id: 'post_nope' }],
    ] as const) {
      const answer = await svc.api(method, path, body === undefined ? {} : { body });
      assert.equal(answer.status, 404, `${method} ${path} ${JSON.stringify(answer.json)}`);
    }
  });
});

describe('idempotency, quota and plans', () => {
  test('a repeated idempotencyKey is refused whatever the earlier post became, also when deleted', async () => {
    const first = await svc.api('POST', '/post', { body: { post: 'idempotent one', platforms: ['facebook'], idempotencyKey: 'k-1' } });
    assert.equal(first.status, 200);
    const again = await svc.api('POST', '/post', { body: { post: 'idempotent two', platforms: ['facebook'], idempotencyKey: 'k-1' } });
    assert.equal(again.status, 400);
    assert.equal(again.json.details.field, 'idempotencyKey');
    assert.equal(again.json.details.id, first.json.id, 'the refusal names the existing post');
    assert.match(again.json.message, new RegExp(first.json.id));
    await svc.api('DELETE', '/post', { body: { id: first.json.id } });
    const afterDelete = await svc.api('POST', '/post', { body: { post: 'idempotent three', platforms: ['facebook'], idempotencyKey: 'k-1' } });
    assert.deepEqual([afterDelete.status, afterDelete.json.details.id], [400, first.json.id]);
  });

  test('simultaneous requests with one idempotencyKey create exactly one post', async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => svc.api('POST', '/post', { body: { post: `racing ${i}`, platforms: ['facebook'], idempotencyKey: 'race-1' } })),
    );
    assert.equal(answers.filter((a) => a.status === 200).length, 1, JSON.stringify(answers.map((a) => a.json)));
    assert.ok(answers.every((a) => a.status === 200 || (a.status === 400 && a.json.code === 101)));
    const winner = answers.find((a) => a.status === 200)!.json.id;
    assert.ok(answers.every((a) => a.status === 200 || a.json.details.id === winner), 'every refusal names the one post');
    assert.equal(Number((await svc.sql(`SELECT COUNT(*) AS n FROM posts WHERE idempotency_key = 'race-1'`)).rows[0]!.n), 1);
  });

  test('quota: once used, new posts, get, delete and retry answer 106 (HTTP 429); /user shows the counts', async () => {
    const count = Number((await svc.api('GET', '/user')).json.monthlyPostCount);
    await svc.sql('INSERT INTO post_quotas (profile_id, monthly_post_quota) VALUES (?, ?)', [svc.primaryProfile.id, count + 1]);
    const last = await svc.api('POST', '/post', { body: { post: 'the last one this month', platforms: ['facebook'] } });
    assert.equal(last.status, 200, JSON.stringify(last.json));
    const over = await svc.api('POST', '/post', { body: { post: 'one too many', platforms: ['facebook'] } });
    assert.equal(over.status, 429);
    assert.equal(over.json.code, 106);
    assert.equal((await svc.api('GET', `/post/${last.json.id}`)).json.code, 106);
    assert.equal((await svc.api('DELETE', '/post', { body: { id: last.json.id } })).json.code, 106);
    assert.equal((await svc.api('PUT', '/post/retry', { body: { id: last.json.id } })).json.code, 106);
    const user = await svc.api('GET', '/user');
    assert.equal(user.json.monthlyPostQuota, count + 1);
    assert.equal(user.json.monthlyPostCount, count + 1);
    // A plan change resets the Primary Profile's count.
    await svc.storage.accounts.updateAccount(svc.account.id, { plan: 'enterprise' });
    assert.equal((await svc.api('GET', '/user')).json.monthlyPostCount, 0);
    await svc.storage.accounts.updateAccount(svc.account.id, { plan: 'business' });
    assert.equal((await svc.api('POST', '/post', { body: { post: 'after the plan change', platforms: ['facebook'] } })).status, 200);
    // The month turns (UTC): the count starts again.
    svc.clock.advance(10 * 24 * 60 * 60 * 1000);
    assert.equal((await svc.api('GET', '/user')).json.monthlyPostCount, 0);
    assert.equal((await svc.api('POST', '/post', { body: { post: 'a new month', platforms: ['facebook'] } })).status, 200);
  });
});

describe('quota at publication time', () => {
  test('a post due in a later month counts there; once that month\'s quota is used, due posts fail with 106', async () => {
    const own = await startPublishingService();
    try {
      await linkSandboxAccounts(own, ['facebook']);
      await own.sql('INSERT INTO post_quotas (profile_id, monthly_post_quota) VALUES (?, ?)', [own.primaryProfile.id, 2]);
      // The clock starts on 22 November; both posts are due on 1 December.
      const first = await own.api('POST', '/post', { body: { post: 'December one', platforms: ['facebook'], scheduleDate: '2026-12-01T10:00:00Z' } });
      const second = await own.api('POST', '/post', { body: { post: 'December two', platforms: ['facebook'], scheduleDate: '2026-12-01T11:00:00Z' } });
      assert.equal(second.json.status, 'scheduled');
      // 1 December, 00:00: a post made in December, before the two are due (made after they started, it would be the
      // third of December and refused).
      own.clock.advance(8.5 * 24 * 60 * 60 * 1000);
      const sameMonth = await own.api('POST', '/post', { body: { post: 'a December post made in December', platforms: ['facebook'] } });
      assert.equal(sameMonth.status, 200, JSON.stringify(sameMonth.json));
      own.clock.advance(12 * 60 * 60 * 1000); // 1 December, 12:00: both are due
      // Reading the posts through the API is refused now (106): look in the database.
      let rows: Record<string, any>[] = [];
      for (let polls = 0; polls < 1000; polls++) {
        rows = (await own.sql(`SELECT p.status, pp.error FROM posts p JOIN post_platforms pp ON pp.post_id = p.id WHERE p.id IN (?, ?)`, [first.json.id, second.json.id])).rows;
        if (rows.every((row) => row.status === 'success' || row.status === 'error')) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const outcomes = rows.map((row) => (row.status === 'success' ? 'success' : JSON.parse(row.error).code)).sort();
      assert.deepEqual(outcomes, [106, 'success']);
      assert.equal((await own.api('GET', `/post/${first.json.id}`)).json.code, 106);
    } finally {
      await own.close();
    }
  });
});

describe('plan gates (spec 5.3)', () => {
  test('autoHashtag and autoRepost need a paid plan; shortenLinks needs max-pack', async () => {
    const free = await startPublishingService({ plan: 'free' });
    try {
      await linkSandboxAccounts(free, ['facebook']);
      for (const extra of [{ autoHashtag: true }, { autoRepost: { repeat: 1, days: 2 } }]) {
        const answer = await free.api('POST', '/post', { body: { post: 'gated', platforms: ['facebook'], ...extra } });
        assert.equal(answer.status, 403, JSON.stringify(answer.json));
        assert.equal(answer.json.code, 104);
      }
    } finally {
      await free.close();
    }
    const noPack = await startPublishingService({ plan: 'business', maxPack: false });
    try {
      await linkSandboxAccounts(noPack, ['facebook']);
      const answer = await noPack.api('POST', '/post', { body: { post: 'https://example.com', platforms: ['facebook'], shortenLinks: true } });
      assert.equal(answer.status, 403);
      assert.equal(answer.json.code, 104);
    } finally {
      await noPack.close();
    }
  });
});
