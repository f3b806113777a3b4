/**
 * Meta's long-lived tokens, on the service clock (SQLite, or PostgreSQL with TEST_DATABASE_URL), for accounts linked
 * through the sandbox consent screen: a Meta login's code gives an hour-long token and no refresh token, so without
 * the trade (networks/meta/long-lived-token.ts) an account linked in the morning could not publish at noon.
 * - facebook keeps the page's token, which does not expire; instagram login and threads keep a 60-day token;
 * - two hours after the link, each publishes;
 * - ninety days later, with the daily sweep renewing instagram's and threads' tokens by themselves, each still
 *   publishes, stays healthy, and no account event was sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import type { TestService } from '../support/test-service.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { closeWithReceiver } from '../webhooks/fixtures.js';
import { waitForPost } from '../publishing/publishing-fixtures.js';
import { advance, createProfile, DAY, eventsOf, HOUR, linkThroughConsent, profileHealth, registerWebhooks, startHealthService } from './fixtures.js';

const META: Network[] = ['facebook', 'instagram', 'threads'];
const SIXTY_DAYS = 60 * DAY;

describe("Meta's long-lived tokens (facebook, instagram, threads) linked on the consent screen", () => {
  let svc: TestService;
  let receiver: WebhookReceiver;
  before(async () => ({ svc, receiver } = await startHealthService()));
  after(() => closeWithReceiver(svc, receiver));

  async function publish(platform: Network, profileKey: string, text: string) {
    const body = { post: text, platforms: [platform], ...(platform === 'instagram' && { mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] }) };
    const created = await svc.api('POST', '/post', { body, headers: { 'Profile-Key': profileKey } });
    assert.equal(created.status, 200, `${platform}: ${JSON.stringify(created.json)}`);
    return waitForPost(svc, created.json.id, (post) => post.status !== 'pending' && post.status !== 'processing', { 'Profile-Key': profileKey });
  }

  it('publish two hours and ninety days after the link, healthy throughout, without a relink', async () => {
    const profiles: Partial<Record<Network, { key: string; refId: string }>> = {};
    const linkedAt = svc.clock();
    for (const platform of META) {
      const key = await createProfile(svc, `Meta ${platform}`);
      await registerWebhooks(svc, receiver, key);
      await linkThroughConsent(svc, key, platform);
      const { refId } = (await svc.api('GET', '/user', { headers: { 'Profile-Key': key } })).json as { refId: string };
      profiles[platform] = { key, refId };
      const [health] = await profileHealth(svc, key);
      if (platform === 'facebook') assert.equal(health!.tokenExpiresAt ?? null, null, `the page token does not expire: ${JSON.stringify(health)}`);
      else assert.equal(Date.parse(health!.tokenExpiresAt), linkedAt + SIXTY_DAYS, `${platform} keeps a 60-day token: ${JSON.stringify(health)}`);
    }

    await advance(svc, 2 * HOUR);
    for (const platform of META) {
      const post = await publish(platform, profiles[platform]!.key, `Two hours after linking ${platform} ${Date.now()}`);
      assert.equal(post.status, 'success', `${platform} two hours on: ${JSON.stringify(post)}`);
    }

    await advance(svc, 90 * DAY, undefined, DAY);
    for (const platform of META) {
      const { key, refId } = profiles[platform]!;
      const [health] = await profileHealth(svc, key);
      assert.equal(health!.status, 'healthy', `${platform}: ${JSON.stringify(health)}`);
      if (platform !== 'facebook') {
        assert.ok(Date.parse(health!.tokenExpiresAt) > svc.clock() + SIXTY_DAYS - 2 * DAY, `${platform} renewed its token by itself: ${JSON.stringify(health)}`);
      }
      const post = await publish(platform, key, `Ninety days after linking ${platform} ${Date.now()}`);
      assert.equal(post.status, 'success', `${platform} ninety days on: ${JSON.stringify(post)}`);
      assert.deepEqual(eventsOf(receiver, refId), [], `${platform}: no account event`);
    }
  });
});
