/**
 * Malformed input to every sandbox network endpoint gets the network's own 4xx error shape, never a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount } from './sandbox-adapter-context.js';

const BODIES = ['', 'null', '[]', '"text"', '{', '{"accountId":null}', '{"record":null,"repo":1}', '{"media":[null,{"type":"photo"}],"chat_id":{}}', `{"text":"${'x'.repeat(5000)}"}`, '{"accountId":"a\\u0000","text":"nul \\u0000 inside","chat_id":"1","identifier":"a\\u0000b","repo":"x","collection":"app.bsky.feed.post","record":{"text":"\\u0000"}}'];

describe('sandbox networks refuse bad input with 4xx', () => {
  let svc: TestService;
  let headers: Record<string, Record<string, string>>;
  /** The bot token of a linked sandbox telegram chat. */
  let botToken: string;
  before(async () => {
    svc = await startTestService();
    const bluesky = await linkSandboxAccount(svc, 'bluesky');
    const twitter = await linkSandboxAccount(svc, 'twitter');
    botToken = (await linkSandboxAccount(svc, 'telegram')).tokens().botToken as string;
    headers = {
      bluesky: { Authorization: `Bearer ${bluesky.tokens().accessJwt}` },
      twitter: { Authorization: `Bearer ${twitter.tokens().accessToken}` },
      none: {},
    };
  });
  after(() => svc.close());

  it('answers every malformed body with a 4xx', async () => {
    const targets: [string, string, Record<string, string>][] = [
      ['POST', '/sandbox/xrpc/com.atproto.repo.createRecord', headers.bluesky!],
      ['POST', '/sandbox/xrpc/com.atproto.repo.deleteRecord', headers.bluesky!],
      ['POST', '/sandbox/xrpc/com.atproto.server.createSession', headers.none!],
      ['POST', '/sandbox/xrpc/com.atproto.server.refreshSession', headers.bluesky!],
      ['GET', '/sandbox/xrpc/com.atproto.repo.getRecord?repo=&collection=&rkey=', headers.none!],
      ['GET', '/sandbox/xrpc/com.atproto.sync.getBlob?did=x&cid=y', headers.none!],
      ['POST', '/sandbox/net/twitter/posts', headers.twitter!],
      ['POST', '/sandbox/net/twitter/posts/123/comments', headers.twitter!],
      ['GET', '/sandbox/net/twitter/posts?accountId=&clientKey=', headers.twitter!],
      ['DELETE', '/sandbox/net/twitter/posts/%00', headers.twitter!],
      ['POST', `/sandbox/telegram/bot${botToken}/sendMessage`, headers.none!],
      ['POST', `/sandbox/telegram/bot${botToken}/sendPhoto`, headers.none!],
      ['POST', `/sandbox/telegram/bot${botToken}/sendMediaGroup`, headers.none!],
      ['POST', `/sandbox/telegram/bot${botToken}/deleteMessage`, headers.none!],
      ['POST', `/sandbox/telegram/bot${botToken}/getMe`, headers.none!],
      ['GET', '/sandbox/xrpc/com.atproto.server.getServiceAuth?aud=&lxm=', headers.bluesky!],
      ['GET', '/sandbox/xrpc/com.atproto.server.getServiceAuth?aud=did:web:x&lxm=m&exp=soon', headers.bluesky!],
      ['POST', '/sandbox/xrpc/app.bsky.video.uploadVideo?did=x&name=a.mp4', headers.bluesky!],
      ['GET', `/sandbox/xrpc/app.bsky.video.getJobStatus?jobId=${Buffer.from('{"did":1}').toString('base64url')}`, headers.none!],
      ['GET', '/sandbox/xrpc/app.bsky.video.getJobStatus?jobId=%7B', headers.none!],
      ['GET', '/sandbox/unsplash/photos/random', headers.bluesky!],
      ['GET', '/sandbox/unsplash/search/photos?query=', { Authorization: 'Client-ID sandbox-unsplash-access-key' }],
      ['GET', '/sandbox/unsplash/photos/..%2F..%2Fx', { Authorization: 'Client-ID sandbox-unsplash-access-key' }],
      ['GET', '/sandbox/unsplash/photos/nope/download', { Authorization: 'Client-ID sandbox-unsplash-access-key' }],
    ];
    for (const [method, path, auth] of targets) {
      for (const body of method === 'GET' ? [undefined] : BODIES) {
        const response = await fetch(`${svc.url}${path}`, { method, headers: { ...auth, 'Content-Type': 'application/json' }, body });
        assert.ok(response.status >= 400 && response.status < 500, `${method} ${path} ${body?.slice(0, 40)} → ${response.status}`);
      }
    }
    const feed = await fetch(`${svc.url}/sandbox/feed?key=${'x'.repeat(5000)}`);
    assert.equal(feed.status, 404);
    for (const path of ['/sandbox/feed?key=a%00b', '/sandbox/net/twitter/p/%00', '/sandbox/profile/did%00/post/x', '/sandbox/telegram/c/%00/1', '/sandbox/xrpc/com.atproto.sync.getBlob?did=%00&cid=x', '/sandbox/unsplash/photos/%00']) {
      assert.equal((await fetch(`${svc.url}${path}`)).status, 400, path);
    }
  });
});
