import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { startTestService, tokenOf } from '../support/test-service.js';

const linkView = (url: string, token: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/link/session`, { headers: { Authorization: `Bearer ${token}`, ...headers } }).then(async (r) => ({
    status: r.status,
    retryAfter: r.headers.get('retry-after'),
    json: (await r.json()) as Record<string, any>,
  }));

describe('abuse limits', () => {
  it('limits token lookups per IP, counting invalid, expired, revoked and valid tokens alike', async () => {
    const svc = await startTestService({ env: { RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '5' } });
    try {
      const expired = await svc.client.createLinkSession({ expiresIn: 1 });
      svc.clock.advance(61_000);
      const valid = await svc.client.createLinkSession({ expiresIn: 30 });
      const revoked = await svc.client.createLinkSession();
      await svc.client.revokeLinkSession(revoked.sessionId);
      const answers = [];
      for (const token of ['A'.repeat(43), tokenOf(revoked.url), tokenOf(expired.url), tokenOf(valid.url), 'C'.repeat(43)]) {
        answers.push(await linkView(svc.url, token));
      }
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [401, 401, 401, 200, 401],
      );
      // Unknown, revoked and expired: one answer, word for word.
      assert.deepEqual(answers[1]!.json, answers[0]!.json);
      assert.deepEqual(answers[2]!.json, answers[0]!.json);
      assert.equal(answers[0]!.json.code, ErrorCode.linkInvalid);
      // Over the limit even the valid token waits, and a spoofed X-Forwarded-For does not open a new bucket.
      const limited = await linkView(svc.url, tokenOf(valid.url), { 'X-Forwarded-For': '203.0.113.9' });
      assert.equal(limited.status, 429);
      assert.equal(limited.json.code, ErrorCode.rateLimited);
      assert.equal(limited.json.status, 'error');
      assert.ok(Number(limited.retryAfter) >= 1 && Number(limited.retryAfter) <= 60);
      svc.clock.advance(60_000);
      assert.equal((await linkView(svc.url, tokenOf(valid.url))).status, 200);
    } finally {
      await svc.close();
    }
  });

  it('trusts X-Forwarded-For only as far as TRUST_PROXY_HOPS says', async () => {
    const svc = await startTestService({ env: { RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '1', TRUST_PROXY_HOPS: '1' } });
    try {
      assert.equal((await linkView(svc.url, 'A'.repeat(43), { 'X-Forwarded-For': '198.51.100.1' })).status, 401);
      assert.equal((await linkView(svc.url, 'A'.repeat(43), { 'X-Forwarded-For': '198.51.100.1' })).status, 429);
      // The client can prepend anything; only the entry the trusted proxy added counts.
      assert.equal((await linkView(svc.url, 'A'.repeat(43), { 'X-Forwarded-For': '10.0.0.1, 198.51.100.1' })).status, 429);
      assert.equal((await linkView(svc.url, 'A'.repeat(43), { 'X-Forwarded-For': '198.51.100.2' })).status, 401);
    } finally {
      await svc.close();
    }
  });

  it('counts hosted page requests in the same per-IP budget; over it the page does no lookup and cannot be framed', async () => {
    const svc = await startTestService({ env: { RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: '3' } });
    try {
      const session = await svc.client.createLinkSession({ origin: 'https://integrator.example' });
      const token = tokenOf(session.url);
      const page = () => fetch(`${svc.url}/link?session=${token}`);
      const first = await page();
      await page();
      assert.equal((await linkView(svc.url, token)).status, 200, 'two page loads and one API call: within 3');
      const refused = await linkView(svc.url, token);
      assert.equal(refused.status, 429);
      assert.equal(refused.json.code, ErrorCode.rateLimited);
      if (first.status === 200) {
        // With the page built: framing follows the session origin within the budget, and is refused over it.
        assert.match(first.headers.get('content-security-policy') ?? '', /frame-ancestors https:\/\/integrator\.example/);
        const over = await page();
        assert.equal(over.status, 200);
        assert.match(over.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
      }
    } finally {
      await svc.close();
    }
  });

  it('limits link-session creation per API key', async () => {
    const svc = await startTestService({ env: { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '3' } });
    const other = await startTestService({ env: { RATE_LIMIT_SESSION_CREATE_PER_MINUTE: '3' } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await svc.api('POST', '/profiles/link-sessions', { body: {} })).status, 200);
      const refused = await svc.api('POST', '/profiles/link-sessions', { body: {} });
      assert.equal(refused.status, 429);
      assert.equal(refused.json.code, ErrorCode.rateLimited);
      assert.equal(refused.headers.get('retry-after'), '60');
      assert.equal((await other.api('POST', '/profiles/link-sessions', { body: {} })).status, 200);
      svc.clock.advance(60_000);
      assert.equal((await svc.api('POST', '/profiles/link-sessions', { body: {} })).status, 200);
    } finally {
      await svc.close();
      await other.close();
    }
  });

  it('limits connection starts per session', async () => {
    const svc = await startTestService({ env: { RATE_LIMIT_CONNECT_STARTS_PER_SESSION: '2' } });
    try {
      const start = (token: string, platform: string) =>
        fetch(`${svc.url}/api/link/connect/${platform}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).then(async (r) => ({
          status: r.status,
          json: (await r.json()) as Record<string, any>,
        }));
      const session = tokenOf((await svc.client.createLinkSession()).url);
      assert.equal((await start(session, 'twitter')).status, 200);
      assert.equal((await start(session, 'facebook')).status, 200);
      const third = await start(session, 'telegram');
      assert.equal(third.status, 429);
      assert.equal(third.json.code, ErrorCode.rateLimited);
      const fresh = tokenOf((await svc.client.createLinkSession()).url);
      assert.equal((await start(fresh, 'twitter')).status, 200);
    } finally {
      await svc.close();
    }
  });

  it('refuses oversize bodies whatever Content-Length says, chunked included', async () => {
    const svc = await startTestService();
    try {
      const send = (headers: Record<string, string | number>, chunks: string[]) =>
        new Promise<{ status: number; json: Record<string, any> }>((resolve, reject) => {
          const url = new URL(`${svc.url}/api/profiles/link-sessions`);
          const req = request(
            { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { Authorization: `Bearer ${svc.apiKey}`, 'Content-Type': 'application/json', ...headers } },
            (res) => {
              let body = '';
              res.on('data', (chunk: Buffer) => (body += chunk));
              res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(body) }));
            },
          );
          req.on('error', reject);
          for (const chunk of chunks) req.write(chunk);
          req.end();
        });
      const big = JSON.stringify({ redirect: `https://a.example/${'x'.repeat(40_000)}` });
      const chunked = await send({ 'Transfer-Encoding': 'chunked' }, [big.slice(0, 20_000), big.slice(20_000)]);
      assert.equal(chunked.status, 400);
      assert.equal(chunked.json.code, ErrorCode.badRequest);
      assert.match(chunked.json.message, /larger than/);
      const declared = await send({ 'Content-Length': 10_000_000 }, []);
      assert.equal(declared.status, 400);
      assert.match(declared.json.message, /larger than/);
    } finally {
      await svc.close();
    }
  });

  it('caps bodies outside the API too (sandbox form, Telegram webhook), chunked or with a lying Content-Length', async () => {
    const svc = await startTestService();
    try {
      const send = (path: string, headers: Record<string, string | number>, chunks: Buffer[]) =>
        new Promise<{ status: number; json: Record<string, any> }>((resolve, reject) => {
          const url = new URL(`${svc.url}${path}`);
          // A fresh socket each time: after an early answer to an unread body, a kept-alive socket is not reusable.
          const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent: false }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(body) }));
          });
          req.on('error', reject);
          for (const chunk of chunks) req.write(chunk);
          req.end();
        });
      const overCeiling = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 'a'));
      const form = await send('/sandbox/authorize', { 'Content-Type': 'application/x-www-form-urlencoded', 'Transfer-Encoding': 'chunked' }, overCeiling);
      assert.equal(form.status, 400);
      assert.equal(form.json.code, ErrorCode.badRequest);
      assert.match(form.json.message, /larger than 1048576 bytes/);
      const telegram = await send('/webhooks/telegram/whatever', { 'Content-Type': 'application/json', 'Content-Length': 50_000_000 }, []);
      assert.equal(telegram.status, 400);
      assert.match(telegram.json.message, /larger than/);
      // Below the ceiling the routes answer as usual (here: no Telegram secret configured).
      const small = await send('/webhooks/telegram/whatever', { 'Content-Type': 'application/json' }, [Buffer.from('{}')]);
      assert.equal(small.status, 401);
    } finally {
      await svc.close();
    }
  });
});
