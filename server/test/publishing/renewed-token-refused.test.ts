/**
 * A refused token says whether relinking will help (issue 24). On a network whose tokens are renewed, a refused
 * token is renewed once and the step runs again; when the network refuses the token it has just issued, a new
 * link would be refused the same way, so the failure does not ask for a relink and says why. Where nothing can be
 * renewed (facebook's long-lived page tokens), a refused token means it was revoked: linking again helps.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

// reddit's sandbox has no 401 marker (docs/sandbox-faults.md).
const RENEWED: Network[] = ['linkedin', 'pinterest', 'youtube', 'tiktok'];

describe('a refused token and relinking', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, [...RENEWED, 'facebook']);
  });
  after(() => svc.close());

  const failOn = async (platform: Network) => {
    const media = ['pinterest'].includes(platform) ? { mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] } : ['youtube', 'tiktok'].includes(platform) ? { mediaUrls: [`${svc.url}/sandbox/media/video-10s.mp4`], isVideo: true } : {};
    const options = platform === 'youtube' ? { youTubeOptions: { title: 'refused' } } : {};
    const created = await svc.api('POST', '/post', { body: { post: `refused on ${platform} ${Math.random()} [[fault:401]]`, platforms: [platform], ...media, ...options } });
    const post = await waitForPost(svc, created.json.id, (p) => p.status === 'error' || p.status === 'success');
    return post.errors[0] as { code: number; message: string; relink?: boolean; details?: Record<string, unknown> };
  };

  for (const platform of RENEWED) {
    it(`${platform}: refused again after the renewal → 401 that does not advise relinking`, async () => {
      const error = await failOn(platform);
      assert.equal(error?.code, 401, JSON.stringify(error));
      assert.equal(error.relink, undefined, JSON.stringify(error));
      assert.equal(error.details?.renewedTokenRefused, true, JSON.stringify(error));
      assert.match(error.message, new RegExp(`^${platform} refused the account's access token again right after the service renewed it, so linking the account again will not help`));
      assert.ok(await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, platform), 'the account stays linked');
    });
  }

  it('facebook (nothing to renew): a refused token asks for a relink', async () => {
    const error = await failOn('facebook');
    assert.deepEqual([error?.code, error.relink], [401, true], JSON.stringify(error));
    assert.match(error.message, /link/i);
  });
});
