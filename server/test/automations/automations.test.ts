/**
 * Automations on the real service with the sandbox networks: an audience comment on instagram or facebook, with a
 * trigger word, sends the commenter a private reply once; the activity rows say `sent`, `failed` (490-495 in
 * errorDetails, never retried) or `auth_error`; the `comments`, `messages` and `automations` webhooks reach a real
 * HTTPS receiver.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from '../publishing/publishing-fixtures.js';
import { startWithReceiver, closeWithReceiver } from '../webhooks/fixtures.js';
import type { WebhookReceiver } from '../support/webhook-receiver.js';
import { audienceComment, publish, sandboxAccountId } from '../analytics/analytics-fixtures.js';

let svc: TestService;
let receiver: WebhookReceiver;

before(async () => {
  ({ svc, receiver } = await startWithReceiver(startPublishingService));
  await linkSandboxAccounts(svc, ['instagram', 'facebook', 'twitter']);
  for (const action of ['comments', 'messages', 'automations']) {
    const registered = await svc.api('POST', '/hook/webhook', { body: { action, url: receiver.url } });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  }
});
after(() => closeWithReceiver(svc, receiver));

async function waitForActivity(id: string, count: number) {
  for (let polls = 0; polls < 1500; polls++) {
    const got = await svc.api('GET', `/automations/${id}/activity`);
    if (got.json.activity?.length >= count && got.json.activity.every((row: any) => row.status !== 'pending')) return got.json.activity as any[];
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`automation ${id} never reached ${count} activity rows`);
}

async function jobsSettled() {
  for (let polls = 0; polls < 1500; polls++) {
    const { rows } = await svc.sql("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'network-event' AND done_at IS NULL AND failed_at IS NULL");
    if (Number(rows[0]!.n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('network events never settled');
}

test('create, list, pause and delete an automation; bad input', async () => {
  const created = await svc.api('POST', '/automations', { body: { triggerWords: ['price'], replyText: 'Sent you the price list!', platforms: ['instagram'] } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  const id = created.json.automation.id;
  assert.equal(created.json.automation.paused, false);
  const listed = await svc.api('GET', '/automations');
  assert.ok(listed.json.automations.some((a: any) => a.id === id));
  const paused = await svc.api('PATCH', `/automations/${id}`, { body: { paused: true } });
  assert.equal(paused.json.automation.paused, true);
  const removed = await svc.api('DELETE', `/automations/${id}`);
  assert.equal(removed.status, 200);
  assert.equal((await svc.api('GET', `/automations/${id}/activity`)).status, 404);
  for (const body of [
    { triggerWords: ['x'], replyText: 'hi', platforms: ['twitter'] },
    { triggerWords: ['x'], replyText: '', platforms: ['instagram'] },
    { triggerWords: 'x', replyText: 'hi', platforms: ['instagram'] },
    { triggerWords: ['x'], replyText: 'hi', platforms: ['instagram'], extra: 1 },
  ]) {
    const answer = await svc.api('POST', '/automations', { body });
    assert.equal(answer.status, 400, JSON.stringify([body, answer.json]));
    assert.ok([101, 163].includes(answer.json.code));
  }
  const unknownPost = await svc.api('POST', '/automations', { body: { triggerWords: [], replyText: 'hi', platforms: ['instagram'], postId: 'nope' } });
  assert.equal(unknownPost.status, 404);
});

test('a comment with a trigger word gets one private reply; others and paused automations do nothing; failures are recorded', async () => {
  const automation = (await svc.api('POST', '/automations', { body: { triggerWords: ['Price', 'link'], replyText: 'Here is the link.', platforms: ['instagram', 'facebook'] } })).json.automation;
  const paused = (await svc.api('POST', '/automations', { body: { triggerWords: [], replyText: 'Paused one.', platforms: ['instagram'] } })).json.automation;
  await svc.api('PATCH', `/automations/${paused.id}`, { body: { paused: true } });
  const insta = await publish(svc, 'instagram');
  const fb = await publish(svc, 'facebook');

  const triggering = await audienceComment(svc, 'instagram', insta.networkPostId, 'What is the PRICE?', 'ada');
  await audienceComment(svc, 'instagram', insta.networkPostId, 'Lovely colours', 'bob');
  const failing = await audienceComment(svc, 'facebook', fb.networkPostId, 'link please [[fault:495]]', 'cy');
  const noPermission = await audienceComment(svc, 'facebook', fb.networkPostId, 'link? [[fault:492]]', 'dee');
  await jobsSettled();

  const activity = await waitForActivity(automation.id, 3);
  assert.equal(activity.length, 3, JSON.stringify(activity));
  const byComment = Object.fromEntries(activity.map((row) => [row.commentId, row]));
  assert.equal(byComment[triggering].status, 'sent');
  assert.equal(byComment[triggering].commenter, 'ada');
  assert.equal(byComment[triggering].actionResults[0].status, 'success');
  assert.equal(byComment[failing].status, 'failed');
  assert.equal(byComment[failing].actionResults[0].errorDetails.code, 495);
  assert.equal(byComment[noPermission].status, 'auth_error');
  assert.equal(byComment[noPermission].actionResults[0].errorDetails.code, 492);
  assert.deepEqual((await svc.api('GET', `/automations/${paused.id}/activity`)).json.activity, []);

  // The same comment event again (a network resends its callbacks): no second private reply, the failure not retried.
  const accountId = await sandboxAccountId(svc, 'instagram');
  await svc.sql(
    "INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES ('job_resend', 'network-event', 'x', ?, 0, 0)",
    [JSON.stringify({ type: 'comment', platform: 'instagram', accountId, networkPostId: insta.networkPostId, commentId: triggering, text: 'What is the PRICE?', author: 'ada', at: 0 })],
  );
  await jobsSettled();
  assert.equal((await waitForActivity(automation.id, 3)).length, 3);

  const sent = await receiver.waitFor((hook) => JSON.parse(hook.body).action === 'automations' && JSON.parse(hook.body).commentId === triggering);
  assert.equal(JSON.parse(sent.body).status, 'sent');
  const comment = await receiver.waitFor((hook) => JSON.parse(hook.body).action === 'comments' && JSON.parse(hook.body).commentId === triggering);
  assert.equal(JSON.parse(comment.body).comment, 'What is the PRICE?');
});

test('a message to the account fires the messages webhook', async () => {
  const accountId = await sandboxAccountId(svc, 'instagram');
  const response = await fetch(`${svc.url}/sandbox/net/instagram/accounts/${encodeURIComponent(accountId)}/audience-messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({ text: 'Hi there', author: 'eve' }),
  });
  assert.equal(response.status, 200);
  const hook = await receiver.waitFor((w) => JSON.parse(w.body).action === 'messages');
  const payload = JSON.parse(hook.body);
  assert.deepEqual([payload.platform, payload.message, payload.author, payload.refId], ['instagram', 'Hi there', 'eve', svc.primaryProfile.refId]);
});
