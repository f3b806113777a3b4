/**
 * The generic sandbox API of the 11 networks without a real adapter, on a real service on loopback: publish, the
 * client-key lookup reconcile relies on, status (tiktok processing on the service clock), delete, comments, the
 * fault markers and per-network limits, and who may call it (each token opens its own network's account only).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount } from './sandbox-adapter-context.js';

describe('generic sandbox API', () => {
  let svc: TestService;
  const accounts = new Map<Network, { accountId: string; token: string }>();
  before(async () => {
    svc = await startTestService();
    for (const platform of ['twitter', 'tiktok', 'instagram', 'facebook'] as const) {
      // One profile per platform is enough: the sandbox keys everything by the network account.
      const linked = await linkSandboxAccount(svc, platform);
      accounts.set(platform, { accountId: linked.account.accountId, token: linked.tokens().accessToken as string });
    }
  });
  after(() => svc.close());

  const call = async (platform: Network, method: string, path: string, body?: unknown, token = accounts.get(platform)?.token) => {
    const response = await fetch(`${svc.url}/sandbox/net/${platform}${path}`, {
      method,
      headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as Record<string, any> };
  };
  const create = (platform: Network, text: string, extra: Record<string, unknown> = {}) =>
    call(platform, 'POST', '/posts', { accountId: accounts.get(platform)!.accountId, text, mediaUrls: [], clientKey: null, options: {}, ...extra });

  it('publishes, reads back and lists by client key; a second publish with the same key stays visible', async () => {
    const first = await create('twitter', 'first post', { clientKey: 'attempt-1' });
    assert.equal(first.status, 200, JSON.stringify(first.json));
    assert.match(first.json.id, /^\d+$/);
    assert.equal(first.json.url, `${svc.config.publicUrl}/sandbox/net/twitter/p/${first.json.id}`);
    const read = await call('twitter', 'GET', `/posts/${first.json.id}`);
    assert.deepEqual(read.json, { id: first.json.id, url: first.json.url, status: 'published' });
    const twice = await create('twitter', 'second post, same key', { clientKey: 'attempt-1' });
    assert.equal(twice.status, 200);
    const listed = await call('twitter', 'GET', `/posts?accountId=${accounts.get('twitter')!.accountId}&clientKey=attempt-1`);
    assert.deepEqual(listed.json.posts.map((post: { id: string }) => post.id).sort(), [first.json.id, twice.json.id].sort());
    const none = await call('twitter', 'GET', `/posts?accountId=${accounts.get('twitter')!.accountId}&clientKey=never-used`);
    assert.deepEqual(none.json, { posts: [] });
  });

  it('twitter: 280 weighted characters, refused above with 111; an exact duplicate with 137', async () => {
    const url = 'https://example.com/a/very/long/path/that/still/counts/as/23';
    const fits = `${'a'.repeat(280 - 24)} ${url}`;
    assert.equal((await create('twitter', fits)).status, 200);
    const cjk = await create('twitter', '漢'.repeat(141));
    assert.deepEqual([cjk.status, cjk.json.error.code], [400, 111]);
    const duplicate = await create('twitter', fits);
    assert.deepEqual([duplicate.status, duplicate.json.error.code], [403, 137]);
  });

  it('tiktok is processing for 5 s of the service clock, then published; comments wait for it', async () => {
    const posted = await create('tiktok', 'a video', { mediaUrls: ['https://media.example/v.mp4'] });
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    assert.equal((await call('tiktok', 'GET', `/posts/${posted.json.id}`)).json.status, 'processing');
    const early = await call('tiktok', 'POST', `/posts/${posted.json.id}/comments`, { text: 'first!' });
    assert.equal(early.status, 409);
    svc.clock.advance(5_000);
    assert.equal((await call('tiktok', 'GET', `/posts/${posted.json.id}`)).json.status, 'published');
    const comment = await call('tiktok', 'POST', `/posts/${posted.json.id}/comments`, { text: 'first!' });
    assert.equal(comment.status, 200);
    assert.match(comment.json.id, /^sbc_/);
    const failing = await create('tiktok', 'bad upload [[fault:processing-failed]]', { mediaUrls: ['https://media.example/v.mp4'] });
    svc.clock.advance(5_000);
    const failed = await call('tiktok', 'GET', `/posts/${failing.json.id}`);
    assert.equal(failed.json.status, 'failed');
    assert.equal(failed.json.error.code, 164);
  });

  it('fault markers answer the spec code with its HTTP status; a code the network cannot produce is refused', async () => {
    const limit = await create('instagram', 'photo [[fault:435]]', { mediaUrls: ['https://media.example/a.jpg'] });
    assert.equal(limit.status, 429);
    assert.equal(limit.json.error.code, 435);
    assert.equal(limit.json.error.retryAfterSeconds, 3600);
    assert.equal(limit.headers.get('retry-after'), '3600');
    const server = await create('facebook', 'boom [[fault:500]]');
    assert.deepEqual([server.status, server.json.error.code], [500, 500]);
    const wrongNetwork = await create('twitter', 'no such thing [[fault:435]]');
    assert.deepEqual([wrongNetwork.status, wrongNetwork.json.error.code], [400, 101]);
    const blocked = await create('facebook', 'blocked [[fault:249]]');
    assert.deepEqual([blocked.status, blocked.json.error.code], [400, 249]);
  });

  it('deletes where the network can, 404 (186) for unknown ids, refuses where it cannot; comments with media on facebook', async () => {
    const posted = await create('facebook', 'to be deleted');
    const comment = await call('facebook', 'POST', `/posts/${posted.json.id}/comments`, { text: 'look', mediaUrls: ['https://media.example/a.jpg'] });
    assert.equal(comment.status, 200);
    assert.deepEqual((await call('facebook', 'DELETE', `/posts/${posted.json.id}`)).json, { deleted: true });
    const gone = await call('facebook', 'GET', `/posts/${posted.json.id}`);
    assert.deepEqual([gone.status, gone.json.error.code], [404, 186]);
    assert.equal((await call('facebook', 'DELETE', `/posts/${posted.json.id}`)).status, 404);
    const photo = await create('instagram', 'stays', { mediaUrls: ['https://media.example/a.jpg'] });
    assert.equal((await call('instagram', 'DELETE', `/posts/${photo.json.id}`)).status, 400);
  });

  it('only the account token, on its own network, may call; bad bodies get 400', async () => {
    const twitter = accounts.get('twitter')!;
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: twitter.accountId, text: 'x' }, '')).status, 401);
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: twitter.accountId, text: 'x' }, accounts.get('facebook')!.token)).status, 401);
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: 'someone-else', text: 'x' })).status, 403);
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: twitter.accountId, text: 'x' }, 'e30.e30.forged')).status, 401);
    assert.equal((await call('twitter', 'POST', '/posts', [1, 2])).status, 400);
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: twitter.accountId, text: 42 })).status, 400);
    assert.equal((await call('twitter', 'POST', '/posts', { accountId: twitter.accountId, text: 'x', mediaUrls: 'nope' })).status, 400);
    assert.equal((await call('bluesky' as Network, 'POST', '/posts', { accountId: 'a', text: 'x' })).status, 404);
  });

  it('accepts the tokens of an account linked on the consent screen, for that account only; another network refuses them', async () => {
    const redirectUri = `${svc.config.publicUrl}/connect/callback/twitter`;
    const consentCode = async (handle: string) => {
      const consent = await fetch(`${svc.url}/sandbox/authorize`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ choice: 'allow', handle, redirect_uri: redirectUri, state: 's', client_id: 'sandbox-twitter', response_type: 'code' }),
      });
      assert.equal(consent.status, 302, await consent.text());
      return new URL(consent.headers.get('location')!).searchParams.get('code')!;
    };
    const exchange = async (code: string, clientId: string) =>
      fetch(`${svc.url}/sandbox/oauth/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: clientId, client_secret: 'sandbox-secret' }),
      });
    assert.equal((await exchange(await consentCode('other_client_try'), 'sandbox-linkedin')).status, 400, 'a code is bound to the client it was issued to');
    const code = await consentCode('browser_linked');
    const issued = await exchange(code, 'sandbox-twitter');
    assert.equal((await exchange(code, 'sandbox-twitter')).status, 400, 'a code works once');
    assert.equal(issued.status, 200);
    const { access_token } = (await issued.json()) as { access_token: string };
    const me = (await (await fetch(`${svc.url}/sandbox/oauth/userinfo`, { headers: { Authorization: `Bearer ${access_token}` } })).json()) as { sub: string; preferred_username: string };
    assert.equal(me.preferred_username, 'browser_linked');
    assert.match(me.sub, /^sandbox-twitter-[0-9a-f]{12}$/);
    const posted = await call('twitter', 'POST', '/posts', { accountId: me.sub, text: 'linked in a browser' }, access_token);
    assert.equal(posted.status, 200, JSON.stringify(posted.json));
    const someoneElse = await call('twitter', 'POST', '/posts', { accountId: accounts.get('twitter')!.accountId, text: 'not mine' }, access_token);
    assert.equal(someoneElse.status, 403);
    const otherNetwork = await call('linkedin', 'POST', '/posts', { accountId: me.sub, text: 'wrong network' }, access_token);
    assert.equal(otherNetwork.status, 401);
  });
});
