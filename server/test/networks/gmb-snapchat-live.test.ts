/**
 * Live tests of the gmb and snapchat adapters against the real networks, skipped unless their credentials are in the
 * environment. Each publishes one clearly-marked test post and finds it again with `reconcile`; gmb then deletes it
 * (snapchat cannot delete: the story expires after 24 hours). Run one with, e.g.:
 *
 *   GMB_LIVE_ACCESS_TOKEN=… node --import tsx --test test/networks/gmb-snapchat-live.test.ts
 *
 * - gmb: GMB_LIVE_ACCESS_TOKEN, a Google OAuth access token with the `business.manage` scope for a user who manages a
 *   Business Profile (the post goes to the first location of the first account; the project needs Business Profile
 *   API access, which Google grants on request). Access tokens live one hour.
 * - snapchat: SNAPCHAT_LIVE_ACCESS_TOKEN, a Snap OAuth access token of an app allowlisted for the Public Profile API,
 *   for a user with a Public Profile, and SNAPCHAT_LIVE_IMAGE_URL, a public JPEG or PNG (9:16 looks right).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { gmbPublishAdapter } from '../../src/networks/gmb/publish.js';
import type { PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone } from '../../src/networks/publish-adapter.js';
import { NETWORKS as NETWORK_MODULES } from '../../src/networks/index.js';
import { snapchatPublishAdapter } from '../../src/networks/snapchat/publish.js';

const env = process.env;
const stamp = `social-link-kit live test ${new Date().toISOString()}`;

function context(platform: Network, token: string, post: Partial<PlatformPost>): PublishContext {
  return {
    post: { platform, text: stamp, mediaUrls: [], isVideo: false, options: {}, postId: 'live', attemptKey: `live:${platform}`, ...post },
    account: { platform, accountId: 'live', username: null, displayName: null, sandbox: false, tokens: async () => ({ accessToken: token }) },
    baseUrl: NETWORK_MODULES[platform].api.real ?? '',
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    log: () => {},
  };
}

async function publishAndFind(adapter: PublishAdapter, ctx: PublishContext): Promise<PublishDone> {
  const prepared = await adapter.prepare(ctx, null);
  assert.notEqual((prepared as { kind?: string }).kind, 'failed', JSON.stringify(prepared));
  const done = (await adapter.commit(ctx, prepared as PreparedState)) as PublishDone;
  assert.equal(done.kind, 'done', JSON.stringify(done));
  assert.equal(((await adapter.reconcile(ctx, prepared as PreparedState)) as PublishDone | null)?.id, done.id);
  return done;
}

describe('gmb and snapchat live publishing (skipped without credentials)', () => {
  it('gmb', { skip: !env.GMB_LIVE_ACCESS_TOKEN && 'set GMB_LIVE_ACCESS_TOKEN to run' }, async () => {
    const ctx = context('gmb', env.GMB_LIVE_ACCESS_TOKEN ?? '', {});
    const done = await publishAndFind(gmbPublishAdapter, ctx);
    assert.equal(await gmbPublishAdapter.remove!(ctx, done.id), true);
  });

  it('snapchat', { skip: !env.SNAPCHAT_LIVE_ACCESS_TOKEN && 'set SNAPCHAT_LIVE_ACCESS_TOKEN and SNAPCHAT_LIVE_IMAGE_URL to run' }, async () => {
    await publishAndFind(snapchatPublishAdapter, context('snapchat', env.SNAPCHAT_LIVE_ACCESS_TOKEN ?? '', { mediaUrls: [env.SNAPCHAT_LIVE_IMAGE_URL ?? ''] }));
  });
});
