/**
 * The seam between linking and publishing, over HTTP as a browser and an integrator would (the Chromium journey
 * suite in test/e2e/journey walks the same path on the real screens): each of the 13 networks is linked through
 * its own screen (the sandbox consent form, bluesky's handle + app password, telegram's bot code), never with
 * `POST /api/sandbox/accounts`, then published to through `POST /api/post`. Each link makes its own sandbox user,
 * so two profiles never share one; an hour later the access token has expired and the next post refreshes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NETWORKS, type Network } from '@social-link-kit/protocol';
import { SANDBOX_BLUESKY_PASSWORD } from '@social-link-kit/sandbox/networks/bluesky-pds.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { callback, runUntilCallback } from '../support/oauth-driver.js';
import { tokenOf, type TestService } from '../support/test-service.js';
import { hashSecret } from '../../src/core/tokens.js';

/** What each network needs to publish (spec 4.9), with `text` in it. */
function requestFor(platform: Network, text: string, url: string): Record<string, unknown> {
  const photo = [`${url}/sandbox/media/photo.jpg`];
  const video = { mediaUrls: [`${url}/sandbox/media/video-10s.mp4`], isVideo: true };
  const extra: Partial<Record<Network, Record<string, unknown>>> = {
    instagram: { mediaUrls: photo },
    pinterest: { mediaUrls: photo, pinterestOptions: { title: 'A pin' } },
    youtube: { ...video, youTubeOptions: { title: text.slice(0, 90) } },
    tiktok: { ...video, tikTokOptions: { visibility: 'public' } },
    snapchat: video,
    reddit: { redditOptions: { title: text.slice(0, 90), subreddit: 'test' } },
  };
  return { post: text, platforms: [platform], ...extra[platform] };
}

describe('linked on its own screen, then published: every network', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
  });
  after(() => svc.close());

  /** Links `platform` to the profile through the screen a person uses; returns the linked account's network id. */
  async function linkAsAPerson(platform: Network, profileKey: string): Promise<string> {
    const session = await svc.client.createLinkSession({ origin: 'https://app.example', allowedSocial: [platform] }, { profileKey });
    const token = tokenOf(session.url);
    const hostedApi = (path: string, body?: unknown) =>
      fetch(`${svc.url}/api/link${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    if (platform === 'bluesky') {
      // A handle takes letters, digits and inner hyphens only: a profile key's `_` or `-` would make it invalid.
      const handle = `person-${profileKey.slice(-6).toLowerCase().replace(/[^a-z0-9]/g, 'x')}.bsky.social`;
      const connected = await hostedApi('/connect/bluesky', { handle, appPassword: SANDBOX_BLUESKY_PASSWORD });
      assert.equal(connected.status, 200, await connected.text());
    } else if (platform === 'telegram') {
      const { code } = (await (await hostedApi('/connect/telegram')).json()) as { code: string };
      const bot = await fetch(`${svc.url}/sandbox/telegram-bot`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
      assert.equal(bot.status, 200);
    } else {
      const { attempt, callbackUrl } = await runUntilCallback(svc, token, platform);
      const result = await callback(callbackUrl, attempt.cookie);
      assert.equal(result.data.outcome, 'success', `${platform}: ${result.data.message}`);
    }
    const profile = await svc.storage.accounts.findProfileByKeyHash(svc.account.id, hashSecret(profileKey));
    const account = await svc.storage.linking.findSocialAccount(profile!.id, platform);
    assert.ok(account, `${platform} linked`);
    assert.equal(account.sandbox, true);
    return account.networkUserId;
  }

  async function publish(platform: Network, profileKey: string, text: string) {
    const created = await svc.api('POST', '/post', { body: requestFor(platform, text, svc.url), headers: { 'Profile-Key': profileKey } });
    assert.equal(created.status, 200, `${platform}: ${JSON.stringify(created.json)}`);
    // tiktok processes a video for a few seconds of the service clock before it is public.
    if (platform === 'tiktok') svc.clock.advance(10_000);
    return waitForPost(svc, created.json.id, (post) => post.status !== 'pending' && post.status !== 'processing', { 'Profile-Key': profileKey });
  }

  it('publishes on all 13 networks to accounts linked on their screens; two profiles get two sandbox users', async () => {
    const first = await svc.client.createProfile('First');
    const second = await svc.client.createProfile('Second');
    const failures: string[] = [];
    for (const platform of NETWORKS) {
      const users = [await linkAsAPerson(platform, first.profileKey), await linkAsAPerson(platform, second.profileKey)];
      assert.notEqual(users[0], users[1], `${platform}: each link makes its own sandbox user`);
      const post = await publish(platform, first.profileKey, `Journey of ${platform} ${Date.now()}`);
      if (post.status !== 'success') failures.push(`${platform}: ${JSON.stringify(post.errors ?? post)}`);
      // The post is on the first profile's sandbox user only.
      const rows = (await svc.sql('SELECT account_id FROM sandbox_posts WHERE text LIKE ?', [`%Journey of ${platform} %`])).rows;
      if (post.status === 'success') assert.deepEqual([...new Set(rows.map((row) => row.account_id))], [users[0]], platform);
    }
    assert.deepEqual(failures, []);
  });

  it('refreshes an expired access token on the next publish, without a relink', async () => {
    const profile = await svc.client.createProfile('Refresh');
    await linkAsAPerson('linkedin', profile.profileKey);
    svc.clock.advance(2 * 60 * 60_000);
    const post = await publish('linkedin', profile.profileKey, `After the token expired ${Date.now()}`);
    assert.equal(post.status, 'success', JSON.stringify(post));
  });
});
