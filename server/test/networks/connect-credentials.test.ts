import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { SANDBOX_BLUESKY_PASSWORD } from '@social-link-kit/sandbox/networks/bluesky-pds.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

const TELEGRAM_SECRET = 'tg-secret-for-tests';

describe('bluesky (app password) and telegram (bot code) connections', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService({ env: { TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET } });
  });
  after(() => svc.close());

  const linkCall = async (token: string, path: string, body?: unknown) => {
    const response = await fetch(`${svc.url}/api/link${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };
  const telegramUpdate = (secret: string, text: string, chatId = 4242, header = secret) =>
    fetch(`${svc.url}/webhooks/telegram/${secret}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': header },
      body: JSON.stringify({ update_id: 1, message: { text, chat: { id: chatId, type: 'private', first_name: 'Ada', username: 'ada_tg' } } }),
    });

  it('links bluesky with a correct app password, verified against the (sandbox) PDS, tokens encrypted', async () => {
    const session = await svc.client.createLinkSession();
    const { status, json } = await linkCall(tokenOf(session.url), '/connect/bluesky', { handle: '@ada.bsky.social', appPassword: SANDBOX_BLUESKY_PASSWORD });
    assert.equal(status, 200);
    assert.equal(json.displayName, 'ada.bsky.social');
    const read = await svc.client.getLinkSession(session.sessionId);
    assert.deepEqual(read.completedNetworks, ['bluesky']);
    const stored = await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'bluesky');
    assert.match(stored!.networkUserId, /^did:plc:[0-9a-f]{24}$/);
    assert.ok(stored!.tokensEncrypted && !stored!.tokensEncrypted.includes(SANDBOX_BLUESKY_PASSWORD));
    assert.ok(!svc.logLines.join('\n').includes(SANDBOX_BLUESKY_PASSWORD));
  });

  it('refuses a wrong app password with 513 and stores nothing', async () => {
    const session = await svc.client.createLinkSession();
    const { status, json } = await linkCall(tokenOf(session.url), '/connect/bluesky', { handle: 'bob.bsky.social', appPassword: 'wrong-password' });
    assert.equal(status, 400);
    assert.equal(json.code, ErrorCode.connectFailed);
    assert.match(json.message, /not correct/);
    assert.deepEqual((await svc.client.getLinkSession(session.sessionId)).completedNetworks, []);
  });

  it('refuses a malformed handle with 101, and bluesky outside allowedSocial with 502', async () => {
    const session = await svc.client.createLinkSession();
    assert.equal((await linkCall(tokenOf(session.url), '/connect/bluesky', { handle: 'not a handle', appPassword: 'x' })).json.code, ErrorCode.badRequest);
    const limited = await svc.client.createLinkSession({ allowedSocial: ['twitter'] });
    const refused = await linkCall(tokenOf(limited.url), '/connect/bluesky', { handle: 'ada.bsky.social', appPassword: SANDBOX_BLUESKY_PASSWORD });
    assert.equal(refused.status, 403);
    assert.equal(refused.json.code, ErrorCode.networkNotAllowed);
  });

  it('links telegram when the bot webhook receives the code; the session read shows it', async () => {
    const session = await svc.client.createLinkSession();
    const { json } = await linkCall(tokenOf(session.url), '/connect/telegram');
    assert.match(json.code, /^[A-HJ-NP-Z2-9]{8}$/);
    assert.equal(json.deepLink, `https://t.me/${json.botUsername}?start=${json.code}`);
    assert.deepEqual((await svc.client.getLinkSession(session.sessionId)).completedNetworks, []);

    assert.equal((await telegramUpdate(TELEGRAM_SECRET, `/start ${json.code}`)).status, 200);
    const read = await svc.client.getLinkSession(session.sessionId);
    assert.deepEqual(read.completedNetworks, ['telegram']);
    const user = await svc.client.getUser();
    const { health, ...telegram } = user.displayNames.find((a) => a.platform === 'telegram')!;
    assert.deepEqual(telegram, {
      platform: 'telegram', displayName: 'Ada', username: 'ada_tg', id: '4242', linkedAt: new Date(svc.clock()).toISOString(),
    });
    assert.equal(health?.status, 'healthy');
    // The code is single use: a replay from another chat links nothing new.
    await telegramUpdate(TELEGRAM_SECRET, json.code, 999);
    assert.equal((await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, 'telegram'))!.networkUserId, '4242');
  });

  it('refuses webhook calls with a wrong path secret or header, and ignores expired codes', async () => {
    const session = await svc.client.createLinkSession();
    const { json } = await linkCall(tokenOf(session.url), '/connect/telegram');
    assert.equal((await telegramUpdate('wrong', `/start ${json.code}`)).status, 401);
    assert.equal((await telegramUpdate(TELEGRAM_SECRET, `/start ${json.code}`, 1, 'wrong-header')).status, 401);
    svc.clock.advance(5 * 60_000 + 1);
    assert.equal((await telegramUpdate(TELEGRAM_SECRET, `/start ${json.code}`, 77)).status, 200);
    assert.deepEqual((await svc.client.getLinkSession(session.sessionId)).completedNetworks, []);
  });

  it('answers a webhook body that is not a JSON object with a 400 envelope; odd field types are ignored with 200', async () => {
    const post = (body: string) =>
      fetch(`${svc.url}/webhooks/telegram/${TELEGRAM_SECRET}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Telegram-Bot-Api-Secret-Token': TELEGRAM_SECRET },
        body,
      });
    for (const body of ['{not json', '[1,2]', '"text"', 'null']) {
      const response = await post(body);
      assert.equal(response.status, 400, body);
      const envelope = (await response.json()) as Record<string, unknown>;
      assert.equal(envelope.status, 'error');
      assert.equal(envelope.action, 'telegram');
    }
    assert.equal((await post(JSON.stringify({ message: { text: 42, chat: 'x' } }))).status, 200);
  });
});
