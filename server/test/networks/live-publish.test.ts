/**
 * Live tests: each real adapter against the real network, skipped unless its credentials are in the environment.
 * Each publishes one clearly-marked test post, finds it again with `reconcile`, and deletes it. Run one with, e.g.:
 *
 *   TWITTER_LIVE_API_KEY=… TWITTER_LIVE_API_SECRET=… TWITTER_LIVE_ACCESS_TOKEN=… TWITTER_LIVE_ACCESS_SECRET=… \
 *   TWITTER_LIVE_USER_ID=… node --import tsx --test test/networks/live-publish.test.ts
 *
 * - twitter: your developer app's key and secret, and a user's OAuth 1.0a access token and secret for that app
 *   (read and write), with the user's numeric id.
 * - linkedin: LINKEDIN_LIVE_ACCESS_TOKEN (w_member_social) and LINKEDIN_LIVE_PERSON_ID (the member id, OpenID `sub`).
 * - reddit: REDDIT_LIVE_ACCESS_TOKEN (submit, edit, history scopes), REDDIT_LIVE_USERNAME, REDDIT_LIVE_SUBREDDIT (one
 *   where test posts are welcome, e.g. your own profile community).
 * - pinterest: PINTEREST_LIVE_ACCESS_TOKEN (pins:write, boards:read), PINTEREST_LIVE_IMAGE_URL (a public image), and
 *   optionally PINTEREST_LIVE_BOARD_ID.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import type { PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone } from '../../src/networks/publish-adapter.js';
import { linkedinPublishAdapter } from '../../src/networks/linkedin/publish.js';
import { pinterestPublishAdapter } from '../../src/networks/pinterest/publish.js';
import { redditPublishAdapter } from '../../src/networks/reddit/publish.js';
import { twitterPublishAdapter } from '../../src/networks/twitter/publish.js';

const env = process.env;
const stamp = `social-link-kit live test ${new Date().toISOString()}`;

function context(platform: Network, baseUrl: string, accountId: string, tokens: Record<string, unknown>, post: Partial<PlatformPost>, extra: Partial<PublishContext> = {}): PublishContext {
  return {
    post: { platform, text: stamp, mediaUrls: [], isVideo: false, options: {}, postId: 'live', attemptKey: `live:${platform}`, ...post },
    account: { platform, accountId, username: null, displayName: null, sandbox: false, tokens: async () => tokens },
    baseUrl,
    fetch: (url, init) => fetch(url, init),
    now: () => Date.now(),
    log: () => {},
    ...extra,
  };
}

async function publishFindDelete(adapter: PublishAdapter, ctx: PublishContext) {
  const prepared = await adapter.prepare(ctx, null);
  assert.notEqual((prepared as { kind?: string }).kind, 'failed', JSON.stringify(prepared));
  const done = (await adapter.commit(ctx, prepared as PreparedState)) as PublishDone;
  assert.equal(done.kind, 'done', JSON.stringify(done));
  const found = await adapter.reconcile(ctx, prepared as PreparedState);
  assert.equal((found as PublishDone | null)?.id?.split(',')[0], done.id.split(',')[0]);
  assert.equal(await adapter.remove!(ctx, done.id), true);
}

describe('live publishing (skipped without credentials)', () => {
  it('twitter', { skip: !env.TWITTER_LIVE_API_KEY && 'set TWITTER_LIVE_* to run' }, async () => {
    const ctx = context(
      'twitter',
      'https://api.x.com',
      env.TWITTER_LIVE_USER_ID ?? '',
      { oauthToken: env.TWITTER_LIVE_ACCESS_TOKEN, oauthTokenSecret: env.TWITTER_LIVE_ACCESS_SECRET },
      {},
      { appCredentials: async () => ({ apiKey: env.TWITTER_LIVE_API_KEY ?? '', apiSecret: env.TWITTER_LIVE_API_SECRET ?? '' }) },
    );
    await publishFindDelete(twitterPublishAdapter, ctx);
  });

  it('linkedin', { skip: !env.LINKEDIN_LIVE_ACCESS_TOKEN && 'set LINKEDIN_LIVE_* to run' }, async () => {
    const ctx = context('linkedin', 'https://api.linkedin.com', env.LINKEDIN_LIVE_PERSON_ID ?? '', { accessToken: env.LINKEDIN_LIVE_ACCESS_TOKEN }, { text: `${stamp} (escaping: [a] #test)` });
    await publishFindDelete(linkedinPublishAdapter, ctx);
  });

  it('reddit', { skip: !env.REDDIT_LIVE_ACCESS_TOKEN && 'set REDDIT_LIVE_* to run' }, async () => {
    const ctx = {
      ...context('reddit', 'https://oauth.reddit.com', env.REDDIT_LIVE_USERNAME ?? '', { accessToken: env.REDDIT_LIVE_ACCESS_TOKEN }, {
        options: { title: stamp, subreddit: env.REDDIT_LIVE_SUBREDDIT ?? '' },
      }),
    };
    ctx.account.username = env.REDDIT_LIVE_USERNAME ?? null;
    await publishFindDelete(redditPublishAdapter, ctx);
  });

  it('pinterest', { skip: !env.PINTEREST_LIVE_ACCESS_TOKEN && 'set PINTEREST_LIVE_* to run' }, async () => {
    const ctx = context('pinterest', 'https://api.pinterest.com', 'me', { accessToken: env.PINTEREST_LIVE_ACCESS_TOKEN }, {
      mediaUrls: [env.PINTEREST_LIVE_IMAGE_URL ?? ''],
      options: env.PINTEREST_LIVE_BOARD_ID ? { boardId: env.PINTEREST_LIVE_BOARD_ID } : {},
    });
    await publishFindDelete(pinterestPublishAdapter, ctx);
  });
});
