/**
 * The real telegram adapter against the sandbox Bot API of a real service on loopback: sendMessage, sendPhoto,
 * sendMediaGroup, deleteMessage in the Bot API's wire format; faults classified; an unanswered send and a crash
 * reported as "outcome unknown" and never sent twice.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTelegramPublishAdapter, telegramPublishAdapter as adapter } from '../../src/networks/telegram/publish.js';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

describe('telegram adapter against the sandbox Bot API', () => {
  let svc: TestService;
  let linked: Awaited<ReturnType<typeof linkSandboxAccount>>;
  let botApi: string;
  /** The bot token the sandbox issued for the linked chat (stored with the link). */
  let botToken: string;
  before(async () => {
    svc = await startTestService();
    linked = await linkSandboxAccount(svc, 'telegram');
    botApi = `${svc.url}/sandbox/telegram`;
    botToken = linked.tokens().botToken as string;
    assert.match(botToken, /^sbx_at_/);
  });
  after(() => svc.close());

  const send = async (text: string, mediaUrls: string[] = [], base = botApi) => {
    const ctx = linked.context(base, { text, mediaUrls });
    const prepared = await adapter.prepare(ctx, null);
    assert.notEqual((prepared as PublishFailure).kind, 'failed', JSON.stringify(prepared));
    return { ctx, prepared: prepared as PreparedState, result: await adapter.commit(ctx, prepared as PreparedState) };
  };
  const messages = async () =>
    (await svc.sql("SELECT network_id, text, media, record FROM sandbox_posts WHERE platform = 'telegram' AND account_id = ? ORDER BY created_at, network_id", [linked.account.accountId]))
      .rows;

  it('sends text, a photo with caption and a media group; message ids count up per chat', async () => {
    const before = (await messages()).length;
    const text = await send('𝗛𝗲𝗹𝗹𝗼 from the sandbox');
    assert.equal(text.result.kind, 'done', JSON.stringify(text.result));
    assert.equal((text.result as PublishDone).id, String(before + 1));
    assert.equal((text.prepared as { method: string }).method, 'sendMessage');
    const photo = await send('a caption', ['https://media.example/cat.jpg']);
    assert.equal((photo.prepared as { method: string }).method, 'sendPhoto');
    assert.equal((photo.result as PublishDone).id, String(before + 2));
    const group = await send('album', ['https://media.example/a.jpg', 'https://media.example/b.mp4', 'https://media.example/c.png']);
    assert.equal((group.prepared as { method: string }).method, 'sendMediaGroup');
    assert.equal((group.result as PublishDone).id, [3, 4, 5].map((n) => before + n).join(','));
    const rows = await messages();
    const last = rows.slice(-3).map((row) => JSON.parse(row.record));
    assert.equal(last[0].caption, 'album');
    assert.equal(last[1].caption, undefined);
    assert.ok(last[1].video);
    assert.equal(new Set(last.map((message) => message.media_group_id)).size, 1);
    assert.ok((group.result as PublishDone).postUrl.startsWith(`${botApi}/c/`));
  });

  it('validate: 4,096 characters of text, 1,024 of caption, at most 10 media', () => {
    const post = linked.context(botApi).post;
    assert.deepEqual(adapter.validate({ ...post, text: 'x'.repeat(4096) }, linked.account), []);
    assert.equal(adapter.validate({ ...post, text: 'x'.repeat(4097) }, linked.account)[0]?.code, 101);
    assert.equal(adapter.validate({ ...post, text: 'x'.repeat(1025), mediaUrls: ['https://m/a.jpg'] }, linked.account).length, 1);
    assert.equal(adapter.validate({ ...post, mediaUrls: Array.from({ length: 11 }, (_, i) => `https://m/${i}.jpg`) }, linked.account).length, 1);
  });

  it('the sandbox Bot API answers in the Bot API format: too long, wrong token, another chat, group sizes', async () => {
    const call = (token: string, method: string, body: unknown) =>
      fetch(`${botApi}/bot${token}/${method}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const long = await call(botToken, 'sendMessage', { chat_id: linked.account.accountId, text: 'x'.repeat(4097) });
    assert.equal(long.status, 400);
    assert.deepEqual(await long.json(), { ok: false, error_code: 400, description: 'Bad Request: message is too long' });
    const wrong = await call('123:nope', 'sendMessage', { chat_id: linked.account.accountId, text: 'hi' });
    assert.equal(wrong.status, 401);
    // A token opens only its own chat.
    for (const chat_id of ['-1001234567890', `@${linked.account.username}`]) {
      const other = await call(botToken, 'sendMessage', { chat_id, text: 'hi' });
      assert.equal(other.status, 400);
      assert.deepEqual(await other.json(), { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    }
    const single = await call(botToken, 'sendMediaGroup', { chat_id: linked.account.accountId, media: [{ type: 'photo', media: 'https://m/a.jpg' }] });
    assert.equal(single.status, 400);
  });

  it('classifies faults: 429 with retry_after, 403 relink, 500 retry, 502 outcome unknown', async () => {
    const rate = (await send('[[fault:429]]')).result as PublishFailure;
    assert.deepEqual([rate.code, rate.retryAvailable, rate.retryAfterMs], [429, true, 30_000]);
    const kicked = (await send('[[fault:403]]')).result as PublishFailure;
    assert.deepEqual([kicked.code, kicked.relink, kicked.retryAvailable], [403, true, false]);
    const internal = (await send('[[fault:500]]')).result as PublishFailure;
    assert.deepEqual([internal.code, internal.retryAvailable], [500, true]);
    const gateway = (await send('[[fault:502]]')).result as PublishFailure;
    assert.equal(gateway.retryAvailable, false);
    assert.deepEqual(gateway.details, { errorCode: 502, description: 'Bad Gateway', outcome: 'unknown' });
  });

  it('a send that gets no answer is reported as outcome unknown, not retryable, and the token is not in the message', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = (await send('into the void', [], `http://127.0.0.1:${port}`)).result as PublishFailure;
    assert.equal(result.kind, 'failed');
    assert.equal(result.retryAvailable, false);
    assert.deepEqual(result.details, { outcome: 'unknown' });
    assert.ok(!JSON.stringify(result).includes(botToken));
  });

  it('reconcile after a crash says the outcome is unknown and never sends', async () => {
    const ctx = linked.context(botApi, { text: 'crashed while sending' });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    const before = (await messages()).length;
    const reconciled = (await adapter.reconcile(ctx, prepared)) as PublishFailure;
    assert.equal(reconciled.kind, 'failed');
    assert.equal(reconciled.retryAvailable, false);
    assert.match(reconciled.message, /at most once/);
    assert.equal((await messages()).length, before);
  });

  it('deletes every message of a post; a service without a bot token refuses to send', async () => {
    const { ctx, result } = await send('to delete', ['https://m/a.jpg', 'https://m/b.jpg']);
    assert.equal(await adapter.remove!(ctx, (result as PublishDone).id), true);
    const left = await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'telegram' AND account_id = ? AND deleted_at IS NULL AND text = 'to delete'", [
      linked.account.accountId,
    ]);
    assert.equal(Number(left.rows[0]!.n), 0);
    const unconfigured = createTelegramPublishAdapter({ botToken: () => null });
    const refused = (await unconfigured.commit({ ...ctx, account: { ...ctx.account, sandbox: false } }, { method: 'sendMessage', payload: { chat_id: ctx.account.accountId, text: 'x' } })) as PublishFailure;
    assert.equal(refused.code, 503);
    assert.match(refused.message, /not configured/);
  });

  it('a sandbox account linked without a bot token is told to link the channel again, and nothing is sent', async () => {
    const ctx = linked.context(botApi, { text: 'no token' });
    const tokenless = { ...ctx, account: { ...ctx.account, tokens: async () => ({}) } };
    const before = (await messages()).length;
    const refused = (await adapter.commit(tokenless, (await adapter.prepare(tokenless, null)) as PreparedState)) as PublishFailure;
    assert.equal(refused.kind, 'failed');
    assert.equal(refused.code, 503);
    assert.match(refused.message, /link the channel again/);
    assert.equal(await adapter.remove!(tokenless, '1'), false);
    assert.equal((await messages()).length, before);
  });
});
