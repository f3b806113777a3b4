/**
 * The HTTPS sender on its own, against a real receiver on loopback: what it does with the receiver's answer.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { createHttpsSender, type WebhookSender } from '../../src/webhooks/https-sender.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

describe('webhook HTTPS sender', () => {
  let receiver: WebhookReceiver;
  let send: WebhookSender;
  before(async () => {
    receiver = await startWebhookReceiver();
    send = createHttpsSender({ extraCaPem: readFileSync(receiver.caFile, 'utf8'), allowPrivateTargets: true });
  });
  after(() => receiver.close());

  const attempt = (id: string) =>
    send({ url: receiver.url, body: '{}', headers: { 'Content-Type': 'application/json', 'X-Webhook-Id': id }, timeoutMs: 60_000 });

  it('closes the connection once it has the status, however long the receiver keeps sending a body', async () => {
    receiver.setMode('trickle');
    try {
      assert.deepEqual(await attempt('trickle-1'), { ok: true, status: 200 });
      // Well within the attempt's 60 s limit: the sender itself closed it, not a timer. (Half of it, not 5 s: the
      // close is seen by this process's event loop, which a loaded machine can keep late.)
      const webhook = await receiver.waitFor((w) => w.headers['x-webhook-id'] === 'trickle-1' && w.closed, 30_000);
      assert.equal(webhook.answeredWith, 200);
    } finally {
      receiver.setMode('ok');
    }
  });

  it('gives up at once when aborted while the receiver\'s name is still being resolved', { timeout: 10_000 }, async () => {
    let lookupStarted!: () => void;
    const resolving = new Promise<void>((resolve) => (lookupStarted = resolve));
    const stuck = createHttpsSender({
      extraCaPem: null,
      allowPrivateTargets: false,
      resolveHost: () => {
        lookupStarted();
        return new Promise(() => {}); // a DNS server that never answers
      },
    });
    const stopping = new AbortController();
    const result = stuck({ url: 'https://hooks.example/in', body: '{}', headers: {}, timeoutMs: 60_000, signal: stopping.signal });
    await resolving;
    stopping.abort();
    assert.deepEqual(await result, { ok: false, status: null, error: 'aborted' });
  });

  it('refuses anything but an https URL without a request', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'not a url']) {
      const result = await send({ url, body: '{}', headers: {}, timeoutMs: 1000 });
      assert.deepEqual(result, { ok: false, status: null, error: 'not an https URL' });
    }
  });
});
