/**
 * `POST /api/sandbox/accounts` (link a sandbox account without a browser, with the same `social` event as a link)
 * and `GET /sandbox/feed` (what the sandbox networks published for a profile: escaped, no script allowed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { telegramPublishAdapter } from '../../src/networks/telegram/publish.js';
import { blueskyPublishAdapter } from '../../src/networks/bluesky/publish.js';
import type { PreparedState } from '../../src/networks/publish-adapter.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount, startMediaHost } from './sandbox-adapter-context.js';
import { createProfileWithWebhook } from '../webhooks/fixtures.js';

describe('sandbox accounts and feed', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ account: { plan: 'business' } });
  });
  after(() => svc.close());

  it('links a sandbox account to the profile chosen by Profile-Key, sealed, and queues the social link event', async () => {
    const { profile, profileKey } = await createProfileWithWebhook(svc, 'https://hooks.example.com/social');
    const linked = await svc.api('POST', '/sandbox/accounts', { headers: { 'Profile-Key': profileKey }, body: { platform: 'linkedin' } });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
    assert.equal(linked.json.platform, 'linkedin');
    assert.match(linked.json.feedUrl, /^http:\/\/127\.0\.0\.1:\d+\/sandbox\/feed\?key=sbx_feed_[\w-]{43}$/);
    assert.ok(!linked.json.feedUrl.includes(profile.refId), 'the feed address is a key, not the public reference id');
    assert.equal((await fetch(linked.json.feedUrl)).status, 200);
    const stored = await svc.storage.linking.findSocialAccount(profile.id, 'linkedin');
    assert.ok(stored?.tokensEncrypted);
    assert.ok(!stored.tokensEncrypted.includes('sbx_at_'), 'tokens are sealed');
    const events = (await svc.storage.webhooks.listWebhookDeliveries(profile.id)).filter((event) => event.action === 'social');
    assert.equal(events.length, 1);
    const payload = JSON.parse(events[0]!.payload);
    assert.deepEqual([payload.event, payload.platform, payload.refId], ['link', 'linkedin', profile.refId]);
  });

  it('refuses unknown platforms (163), unknown fields (101), a missing API key (401) and networks not on the sandbox (400)', async () => {
    const unknown = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'myspace' } });
    assert.deepEqual([unknown.status, unknown.json.code, unknown.json.status], [400, 163, 'error']);
    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: {} })).json.code, 163);
    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'twitter', extra: 1 } })).json.code, 101);
    assert.equal((await svc.api('POST', '/sandbox/accounts', { rawBody: '[', headers: { 'Content-Type': 'application/json' } })).status, 400);
    assert.equal((await svc.api('POST', '/sandbox/accounts', { body: { platform: 'twitter' }, headers: { Authorization: 'Bearer nope' } })).status, 401);
    const real = await startTestService({ env: { TWITTER_CLIENT_ID: 'id', TWITTER_CLIENT_SECRET: 'secret', BLUESKY_PDS_URL: 'https://pds.example' } });
    try {
      for (const platform of ['twitter', 'bluesky']) {
        const refused = await real.api('POST', '/sandbox/accounts', { body: { platform } });
        assert.deepEqual([refused.status, refused.json.code], [400, 101], platform);
      }
      assert.equal((await real.api('POST', '/sandbox/accounts', { body: { platform: 'reddit' } })).status, 200);
    } finally {
      await real.close();
    }
  });

  it('the feed shows what each network published, escaped, with media, replies, comments and status', async () => {
    const media = await startMediaHost();
    try {
      const bluesky = await linkSandboxAccount(svc, 'bluesky');
      const ctx = bluesky.context(`${svc.url}/sandbox`, { text: '𝗯𝗼𝗹𝗱 <script>alert(1)</script> & "quotes"', mediaUrls: [`${media.url}/tiny.png`], attemptKey: 'feed:bluesky:1' });
      const done = await blueskyPublishAdapter.commit(ctx, (await blueskyPublishAdapter.prepare(ctx, null)) as PreparedState);
      assert.equal(done.kind, 'done');
      await blueskyPublishAdapter.comment!(ctx, (done as { id: string }).id, 'a reply <b>', []);
      const telegram = await linkSandboxAccount(svc, 'telegram');
      const tctx = telegram.context(`${svc.url}/sandbox/telegram`, { text: 'to the channel' });
      await telegramPublishAdapter.commit(tctx, (await telegramPublishAdapter.prepare(tctx, null)) as PreparedState);
      const tiktok = await linkSandboxAccount(svc, 'tiktok');
      await fetch(`${svc.url}/sandbox/net/tiktok/posts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tiktok.tokens().accessToken}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ accountId: tiktok.account.accountId, text: 'still processing', mediaUrls: ['https://media.example/v.mp4'] }),
      });

      const response = await fetch((await svc.api('GET', '/sandbox/feed-url')).json.url);
      assert.equal(response.status, 200);
      const csp = response.headers.get('content-security-policy') ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.doesNotMatch(csp, /script-src/);
      const page = await response.text();
      assert.ok(!page.includes('<script'), 'no script tag, not even the escaped input');
      assert.ok(page.includes('𝗯𝗼𝗹𝗱 &#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;'));
      assert.ok(page.includes('💬 a reply &#60;b&#62;'));
      assert.ok(page.includes('/sandbox/xrpc/com.atproto.sync.getBlob?did='));
      assert.ok(page.includes('to the channel'));
      assert.match(page, /class="status processing">processing</);
      assert.equal((page.match(/<article>/g) ?? []).length, 3, 'the reply is shown under its post, not as a post');

      const one = await fetch((done as { postUrl: string }).postUrl);
      assert.equal(one.status, 200);
      assert.ok((await one.text()).includes('&#34;quotes&#34;'));
      // The public reference id alone opens nothing; a made-up key neither.
      assert.equal((await fetch(`${svc.url}/sandbox/feed?profile=${svc.primaryProfile.refId}`)).status, 404);
      assert.equal((await fetch(`${svc.url}/sandbox/feed?key=sbx_feed_nope`)).status, 404);
    } finally {
      await media.close();
    }
  });
});
