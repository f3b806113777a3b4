/**
 * A publish call cut after the network made the post (the sandbox's `[[reset]]`: the post is made, then the socket
 * is destroyed before the answer) is an unknown outcome, decided by looking (uncertain-call.ts): the post is found
 * and recorded as published, once. Before, facebook reported "temporary problem; try again" (the post out, recorded
 * as failed, a retry making a second copy) and twitter, linkedin and reddit gave up as `unconfirmed` without looking.
 * A call refused before it left (no connection) stays a plain retryable failure.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { GuardedFetchError } from '../../src/core/guarded-fetch.js';
import { mayHaveArrived } from '../../src/networks/uncertain-call.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService, waitForPost } from './publishing-fixtures.js';

const NETWORKS: Network[] = ['facebook', 'twitter', 'linkedin', 'bluesky', 'reddit'];
const LINKED: Network[] = [...NETWORKS, 'tiktok'];
const EXTRA: Partial<Record<Network, Record<string, unknown>>> = { reddit: { redditOptions: { title: 'Reset after the commit', subreddit: 'test' } } };

describe('a publish call cut after the network made the post', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, LINKED);
  });
  after(() => svc.close());

  for (const platform of NETWORKS) {
    it(`${platform}: looked up, recorded as published, one copy`, async () => {
      const text = `A ${platform} post whose answer is cut [[reset]]`;
      const created = await svc.api('POST', '/post', { body: { post: text, platforms: [platform], ...EXTRA[platform] } });
      assert.ok(created.status === 200 || created.status === 400, JSON.stringify(created.json));
      const id = String(created.json.id ?? created.json.posts?.[0]?.id);
      const post = await waitForPost(svc, id, (p) => p.status !== 'processing' && p.status !== 'queued');
      const copies = (await svc.sql(`SELECT network_id FROM sandbox_posts WHERE platform = ? AND text LIKE ? AND status = 'published'`, [platform, `%${platform} post whose answer is cut%`])).rows;
      assert.equal(copies.length, 1, `one ${platform} post on the network`);
      assert.equal(post.status, 'success', JSON.stringify(post));
      const recorded = (await svc.sql('SELECT network_post_id FROM post_platforms WHERE post_id = ?', [id])).rows[0]?.network_post_id as string;
      assert.ok(recorded === copies[0]!.network_id || String(recorded).endsWith(`/${String(copies[0]!.network_id)}`), `${recorded} names the post on the network`);
    });
  }

  it('tiktok (no look-up exists): unconfirmed, never "try again"', async () => {
    const text = 'A tiktok video whose init answer is cut [[reset]]';
    const created = await svc.api('POST', '/post', { body: { post: text, platforms: ['tiktok'], mediaUrls: [`${svc.url}/sandbox/media/video-3s.mp4`], isVideo: true, tikTokOptions: { visibility: 'public' } } });
    const id = String(created.json.id ?? created.json.posts?.[0]?.id);
    await waitForPost(svc, id, (p) => p.status !== 'processing' && p.status !== 'queued');
    const row = (await svc.sql('SELECT status, error FROM post_platforms WHERE post_id = ?', [id])).rows[0] as { status: string; error: string };
    assert.equal(row.status, 'error');
    const error = JSON.parse(row.error) as { details?: { outcome?: string } };
    assert.equal(error.details?.outcome, 'unknown', row.error);
  });

  it('a request that never left (no connection, an address refused) is not taken for one that may have arrived', () => {
    assert.equal(mayHaveArrived(new GuardedFetchError('network', 'connect ECONNREFUSED 127.0.0.1:9')), false);
    assert.equal(mayHaveArrived(new GuardedFetchError('refused', 'refused: private address')), false);
    assert.equal(mayHaveArrived(new GuardedFetchError('network', 'socket hang up')), true);
    assert.equal(mayHaveArrived(new GuardedFetchError('timeout', 'timed out after 30000 ms')), true);
  });
});
