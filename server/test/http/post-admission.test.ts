/**
 * `POST /api/post` admission (core/http/admission.ts; issue 31: a flood of creates must not starve the other
 * routes), on the real service over loopback. The gate's decisions are watched through its test hook, not timed:
 * - creates alone are admitted at once: every decision is `admitted`, with nothing waiting (how many a window holds
 *   beside admission off is for `bench/routes-while-posting.mjs`: two windows timed one after the other on a busy
 *   CI machine differ by more than any bound a test could hold);
 * - while other requests keep arriving, creates wait and the other requests are answered meanwhile (the gate reads a
 *   test clock that stands still, so no create's turn comes and no quiet moment of a busy machine releases them);
 *   once they stop and the clock moves past the quiet time, every waiting create is released, each answered once
 *   and stored once, each API key's in its order, the keys taken in turn;
 * - past `POST_CREATE_QUEUE_MAX` waiting creates, a create gets the spec's 429 envelope with `Retry-After`.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { createAccount } from '../../src/accounts/service.js';
import { performance } from 'node:perf_hooks';
import { QUIET_MS, type AdmissionEvent } from '../../src/core/http/admission.js';
import { FAST_JOBS, linkSandboxAccounts } from '../publishing/publishing-fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';

const DAY = 86_400_000;
let posts = 0;
/** A scheduled linkedin post with its own text, due hours apart after the test clock's now. */
const scheduledPost = (svc: TestService) => ({
  post: `Admission ${++posts} ${randomBytes(8).toString('hex')}`,
  platforms: ['linkedin'],
  scheduleDate: new Date(svc.clock() + DAY + posts * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
});

async function postService(env: NodeJS.ProcessEnv = {}) {
  const svc = await startTestService({ account: { plan: 'business' }, env: { ...FAST_JOBS, ...env } });
  await linkSandboxAccounts(svc, ['linkedin']);
  return svc;
}

/** Creates posts on `connections` connections, one after the other on each, for `ms`; how many were made. */
async function createFor(svc: TestService, ms: number, connections: number): Promise<number> {
  const end = Date.now() + ms;
  let made = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < end) {
        const created = await svc.api('POST', '/post', { body: scheduledPost(svc) });
        assert.equal(created.status, 200, JSON.stringify(created.json));
        made++;
      }
    }),
  );
  return made;
}

/** Other requests (a link session's reads) on 4 connections until stopped, so the gate always sees one arriving. */
function otherTraffic(svc: TestService, sessionId: string) {
  let stopped = false;
  let answered = 0;
  let answeredWhileWaiting = 0;
  const loops = Array.from({ length: 4 }, async () => {
    while (!stopped) {
      const read = await svc.api('GET', `/profiles/link-sessions/${sessionId}`);
      assert.equal(read.status, 200, JSON.stringify(read.json));
      answered++;
      if (svc.admission!.waiting > 0) answeredWhileWaiting++;
    }
  });
  return {
    get answered() {
      return answered;
    },
    get answeredWhileWaiting() {
      return answeredWhileWaiting;
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** The gate's time, standing still until `quiet()` moves it past the quiet time (other requests have stopped). */
function standStill(svc: TestService) {
  let now = 1_000_000;
  svc.admission!.useClock({ now: () => now, loopBusyMs: () => performance.eventLoopUtilization().active, cpuMs: () => process.cpuUsage().user / 1000 });
  return {
    quiet() {
      now += QUIET_MS;
    },
  };
}

async function until(condition: () => boolean, what: string) {
  for (let polls = 0; polls < 3000 && !condition(); polls++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(condition(), `never happened: ${what}`);
}

describe('POST /api/post admission', () => {
  const services: TestService[] = [];
  after(async () => {
    for (const svc of services) await svc.close();
  });

  it('admits creates alone at once', async () => {
    const paced = await postService();
    const unpaced = await postService({ POST_CREATE_LOOP_SHARE: '0' });
    services.push(paced, unpaced);
    assert.equal(unpaced.admission, null);
    const events: AdmissionEvent[] = [];
    paced.admission!.observe((event) => events.push(event));
    const made = await createFor(paced, 1500, 2);
    assert.ok(made > 0);
    assert.equal(events.length, made);
    assert.deepEqual(new Set(events.map((event) => `${event.kind}, ${event.waiting} waiting`)), new Set(['admitted, 0 waiting']));
  });

  it('answers other requests while creates wait, then releases every create once, FIFO per API key', async () => {
    const svc = await postService();
    services.push(svc);
    const clock = standStill(svc);
    const second = await createAccount(svc.storage, svc.clock, { plan: 'business' });
    const secondAuth = { Authorization: `Bearer ${second.apiKey}` };
    const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'linkedin' }, headers: secondAuth });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
    const session = await svc.api('POST', '/profiles/link-sessions', { body: {} });
    const events: AdmissionEvent[] = [];
    svc.admission!.observe((event) => events.push(event));
    const storedBefore = (await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n as number;
    const creates: Promise<Awaited<ReturnType<TestService['api']>>>[] = [];
    const send = async (headers?: Record<string, string>) => {
      const decided = events.length;
      creates.push(svc.api('POST', '/post', { body: scheduledPost(svc), ...(headers && { headers }) }));
      await until(() => events.length > decided, 'the gate decided on a create');
    };
    const others = otherTraffic(svc, session.json.sessionId);
    try {
      await until(() => others.answered > 0, 'other requests answered');
      // The first create may start (nothing waits yet); the next ones wait while the reads go on. The second key's
      // creates arrive after the first key's first three, each once the one before is queued.
      for (let n = 0; n < 4; n++) await send();
      for (let n = 0; n < 3; n++) await send(secondAuth);
      for (let n = 0; n < 3; n++) await send();
      assert.deepEqual(events.map((event) => `${event.kind} ${event.ticket}`), ['admitted 1', ...[2, 3, 4, 5, 6, 7, 8, 9, 10].map((ticket) => `queued ${ticket}`)]);
      const answeredBefore = others.answered;
      await until(() => others.answered >= answeredBefore + 40, 'other requests answered while creates wait');
      assert.ok(others.answeredWhileWaiting >= 40, `${others.answeredWhileWaiting} other requests answered while creates waited`);
      assert.equal(svc.admission!.waiting, 9, 'the creates still wait while other requests arrive');
    } finally {
      await others.stop();
      clock.quiet();
    }
    const answers = await Promise.all(creates);
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.json));
    const ids = answers.map((answer) => answer.json.id as string);
    assert.equal(new Set(ids).size, ids.length, 'one post per create');
    const stored = await svc.sql('SELECT COUNT(*) AS n FROM posts');
    assert.equal(stored.rows[0]!.n, storedBefore + creates.length, 'every create stored once');

    // Released in each key's order of arrival, the keys in turn: the first key's 3 waiting, the second's 3, then
    // the first's 3 more.
    const released = events.filter((event) => event.kind === 'released');
    assert.deepEqual(released.map((event) => event.ticket), [2, 5, 3, 6, 4, 7, 8, 9, 10]);
    const [first, other] = [svc.account.id, second.account.id];
    assert.deepEqual(
      released.map((event) => event.key),
      [first, other, first, other, first, other, first, first, first],
    );
  });

  it("answers 429 with the spec's envelope and Retry-After past the queue's bound", async () => {
    const svc = await postService({ POST_CREATE_QUEUE_MAX: '2' });
    services.push(svc);
    const clock = standStill(svc);
    const session = await svc.api('POST', '/profiles/link-sessions', { body: {} });
    const events: AdmissionEvent[] = [];
    svc.admission!.observe((event) => events.push(event));
    const others = otherTraffic(svc, session.json.sessionId);
    const creates = [];
    try {
      await until(() => others.answered > 0, 'other requests answered');
      // One admitted at once (nothing waits yet), two waiting, the fourth over the bound.
      for (let n = 0; n < 3; n++) {
        const decided = events.length;
        creates.push(svc.api('POST', '/post', { body: scheduledPost(svc) }));
        await until(() => events.length > decided, 'the gate decided on a create');
      }
      const refused = await svc.api('POST', '/post', { body: scheduledPost(svc) });
      assert.deepEqual(events.map((event) => event.kind), ['admitted', 'queued', 'queued', 'refused']);
      assert.equal(refused.status, 429, JSON.stringify(refused.json));
      const { json, headers } = refused;
      assert.deepEqual(Object.keys(json).sort(), ['action', 'code', 'details', 'message', 'retryAvailable', 'status']);
      assert.equal(json.status, 'error');
      assert.equal(json.action, 'post');
      assert.equal(json.code, 510);
      assert.equal(typeof json.message, 'string');
      assert.ok(Number.isInteger(json.details.retryAfter) && json.details.retryAfter >= 1, JSON.stringify(json));
      assert.equal(headers.get('retry-after'), String(json.details.retryAfter));
    } finally {
      await others.stop();
      clock.quiet();
    }
    for (const answer of await Promise.all(creates)) assert.equal(answer.status, 200, JSON.stringify(answer.json));
  });
});
