/**
 * whatsapp is a private beta in the spec and not offered here (docs/networks.md): it is not in the catalogue, a post
 * to it is refused with the error envelope (4xx, nothing stored), and no sandbox account can be made for it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NETWORKS, isNetwork } from '@social-link-kit/protocol';
import { startPublishingService } from '../publishing/publishing-fixtures.js';
import type { TestService } from '../support/test-service.js';

describe('whatsapp is not offered', () => {
  let svc: TestService;
  before(async () => {
    svc = await startPublishingService();
  });
  after(() => svc.close());

  it('is not a network of the catalogue', () => {
    assert.equal(isNetwork('whatsapp'), false);
    assert.ok(!(NETWORKS as readonly string[]).includes('whatsapp'));
  });

  it('a post to whatsapp and a sandbox whatsapp account are refused with the envelope, nothing stored', async () => {
    const posted = await svc.api('POST', '/post', { body: { post: 'hello', platforms: ['whatsapp'] } });
    assert.ok(posted.status >= 400 && posted.status < 500, JSON.stringify(posted.json));
    for (const key of ['status', 'action', 'code', 'message', 'details']) assert.ok(key in posted.json, `${key}: ${JSON.stringify(posted.json)}`);
    // Issue 27: not "unknown": the answer says it is not offered (a private beta), with the invalid-platform code.
    assert.deepEqual([posted.status, posted.json.code, posted.json.action], [400, 163, 'post']);
    assert.match(posted.json.message, /whatsapp is not offered.*private beta/);
    assert.deepEqual(posted.json.details.notOffered, ['whatsapp']);
    assert.equal((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n, 0);
    const account = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'whatsapp' } });
    assert.equal(account.status, 400, JSON.stringify(account.json));
  });
});
