/**
 * The fence before every irreversible call (issue 30): a worker paused past its lease (a SIGSTOP, a blocked event
 * loop: no renewal runs) after the first part of a twitter thread went out, whose job another worker then took
 * over and finished, sends nothing when it wakes up: every part is on X once. On the code before the fence, the
 * woken worker sent the second part again (its lease was checked only when the commit started). Two engines on one
 * real database (SQLite, or PostgreSQL with TEST_DATABASE_URL), the sandbox X API on real HTTP.
 * And the other side of it: a worker whose lease ran out while its send was still on the way (a slow network, seeds
 * 35 and 49 of the simulation) leaves a post the worker taking over cannot find yet; that one waits for the send's
 * deadline and finds it, instead of sending it again (the code before posted it twice). The answer that then reaches
 * the worker that lost its lease records nothing: recorded twice, it queued the post's first comment twice, and the
 * comment went out twice (the code before; SQLite simulation seed 10).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobStore } from '../../src/core/jobs/job-store.js';
import { PUBLISH_ADAPTERS, publishBaseUrl } from '../../src/networks/index.js';
import { JOB_FIRST_COMMENT, JOB_PUBLISH, PublishingEngine } from '../../src/publishing/engine.js';
import { PostStore } from '../../src/publishing/post-store.js';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, startPublishingService } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  // The service's own worker sleeps: the two engines below are the only ones running the post's job.
  svc = await startPublishingService({ env: { JOBS_POLL_MS: '2000000000' } });
  await linkSandboxAccounts(svc, ['twitter', 'facebook']);
});
after(() => svc.close());

const LEASE_MS = 400;
/** How long a send may still be answered after its lease ran out (the takeover waits that out). */
const CALL_DEADLINE_MS = 3_000;

function engineWith(fetch: typeof globalThis.fetch, jobs: JobStore, log: string[], callDeadlineMs = 0) {
  return new PublishingEngine({
    storage: svc.storage,
    postRequests: svc.storage.posts,
    tokenCipher: svc.tokenCipher,
    clock: svc.clock,
    fetch,
    baseUrl: (platform, sandbox) => publishBaseUrl(platform, svc.url, sandbox),
    publishBaseUrl: (platform, sandbox) => publishBaseUrl(platform, svc.url, sandbox),
    isSandbox: () => true,
    log: (line) => log.push(line),
    store: new PostStore(svc.storage.driver),
    jobs,
    adapters: PUBLISH_ADAPTERS,
    leaseMs: LEASE_MS,
    callDeadlineMs,
    retryBaseMs: 50,
    retryMaxMs: 200,
    maxAttempts: 5,
  });
}

/** A post scheduled an hour ahead (`body` without its date); its id, and a time past its due time to claim its job at. */
async function scheduledPost(body: Record<string, unknown>): Promise<{ postId: string; due: number }> {
  const created = await svc.api('POST', '/post', { body: { ...body, scheduleDate: new Date(svc.clock() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  return { postId: created.json.id as string, due: svc.clock() + 2 * 3_600_000 };
}

/**
 * A fetch for worker A that resolves `sending` once A's send carrying the `[[slow:…]]` marker (in its body or
 * address, form-encoded or not) is on its way to the network.
 */
function signallingSlowSend(): { fetchA: typeof globalThis.fetch; sending: Promise<void> } {
  let sent!: () => void;
  let never!: (error: Error) => void;
  const sending = new Promise<void>((resolve, reject) => ((sent = resolve), (never = reject)));
  // Only a hang reaches this: the send goes out within moments of the claim.
  const timer = setTimeout(() => never(new Error("worker A's slow send never went out")), 30_000).unref();
  const fetchA: typeof globalThis.fetch = (url, init) => {
    const body = typeof init?.body === 'string' || init?.body instanceof URLSearchParams ? String(init.body) : '';
    if (init?.method === 'POST' && readable(`${String(url)} ${body}`).includes('[[slow:')) {
      clearTimeout(timer);
      sent();
    }
    return fetch(url, init);
  };
  return { fetchA, sending };
}

/** Form and address encoding undone (a malformed escape leaves the text as it is). */
function readable(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Worker A claims the post's job on a LEASE_MS lease (nothing renews it here) and starts running it. */
async function workerAStarts(postId: string, due: number, fetchA: typeof globalThis.fetch, callDeadlineMs: number) {
  const jobsA = new JobStore(svc.storage.driver);
  const [jobA] = await jobsA.claim(due, 1, [JOB_PUBLISH], LEASE_MS);
  assert.equal(jobA?.subject, postId);
  return engineWith(fetchA, jobsA, [], callDeadlineMs).runPublishJob(jobA!);
}

/** Worker B takes the job over once A's lease ran out and runs it to its end; B's log. */
async function workerBTakesOver(postId: string, due: number, callDeadlineMs: number): Promise<string[]> {
  const logB: string[] = [];
  const jobsB = new JobStore(svc.storage.driver);
  const [jobB] = await jobsB.claim(due, 1, [JOB_PUBLISH], 60_000);
  assert.equal(jobB?.subject, postId, 'the second worker took the job over');
  assert.equal((await engineWith(fetch, jobsB, logB, callDeadlineMs).runPublishJob(jobB!)).kind, 'done', logB.join('\n'));
  return logB;
}

test('a worker paused past its lease between two thread parts sends nothing after another worker took the job', async () => {
  const sentences = Array.from({ length: 12 }, (_, i) => `Fenced sentence ${i + 1} of a thread whose first worker is paused mid-way.`);
  const { postId, due } = await scheduledPost({ post: sentences.join(' '), platforms: ['twitter'] });

  // Worker A: its first tweet goes out, then the process "pauses" (nothing of it runs, no lease renewal) until released.
  let firstOut!: () => void;
  const firstPartOut = new Promise<void>((resolve) => (firstOut = resolve));
  let wake!: () => void;
  const paused = new Promise<void>((resolve) => (wake = resolve));
  let tweetsByA = 0;
  const fetchA: typeof globalThis.fetch = async (url, init) => {
    const answer = await fetch(url, init);
    if (init?.method === 'POST' && String(url).endsWith('/2/tweets') && ++tweetsByA === 1) {
      firstOut();
      await paused;
    }
    return answer;
  };
  const runA = workerAStarts(postId, due, fetchA, 0);
  await firstPartOut;
  await sleep(LEASE_MS * 2);

  // Worker B takes the job over once A's lease ran out, reconciles the part that is out and finishes the thread.
  await workerBTakesOver(postId, due, 0);

  // A wakes up with its first part's answer and would go on with the second part.
  wake();
  const outcomeA = await runA;
  assert.equal(tweetsByA, 1, `the paused worker sent nothing after waking (outcome ${JSON.stringify(outcomeA)})`);

  const tweets = (await svc.sql("SELECT network_id, text FROM sandbox_posts WHERE platform = 'twitter'")).rows as { network_id: string; text: string }[];
  assert.equal(new Set(tweets.map((t) => t.text)).size, tweets.length, `no part twice: ${JSON.stringify(tweets)}`);
  const row = (await svc.sql('SELECT status, network_post_id FROM post_platforms WHERE post_id = ?', [postId])).rows[0];
  assert.equal(row?.status, 'success');
  const textOf = new Map(tweets.map((t) => [t.network_id, t.text]));
  const recorded = String(row?.network_post_id).split(',');
  assert.equal(recorded.length, tweets.length, 'the result names every part');
  assert.equal(recorded.map((id) => textOf.get(id)).join(' '), sentences.join(' '), 'every part once, in order');
});

test('a send still on its way when its lease ran out is waited for and adopted, not sent again', async () => {
  const text = `Slow send ${Date.now()} [[slow:1500]]`;
  const { postId, due } = await scheduledPost({ post: text, platforms: ['facebook'] });

  // Worker A sends; the network takes 1.5 s before it makes the post; A's lease (400 ms) is not renewed meanwhile.
  // B comes once A's send is on its way and A's lease (taken before it) has run out: not after a fixed wait from
  // the start, which on a loaded machine could come before A had even claimed the job.
  const { fetchA, sending } = signallingSlowSend();
  const runA = workerAStarts(postId, due, fetchA, CALL_DEADLINE_MS);
  await sending;
  await sleep(LEASE_MS + 100);

  const logB = await workerBTakesOver(postId, due, CALL_DEADLINE_MS);
  assert.ok(logB.some((line) => line.includes('may still be answered')), `B waited for A's send: ${logB.join('\n')}`);
  await runA;

  const posts = (await svc.sql("SELECT network_id FROM sandbox_posts WHERE platform = 'facebook' AND text = ?", [text])).rows;
  assert.equal(posts.length, 1, 'the post is on the page once');
  const row = (await svc.sql('SELECT status, network_post_id FROM post_platforms WHERE post_id = ?', [postId])).rows[0];
  assert.equal(row?.status, 'success');
  assert.equal(row?.network_post_id, posts[0]!.network_id);
});

test('a thread whose last part was still on its way at the takeover: the part is waited for and found, not sent again', async () => {
  const token = `t${Date.now() % 100_000}`;
  const sentences = Array.from({ length: 12 }, (_, i) => `Slow thread ${token} sentence ${i + 1} of a thread whose last part is slow.`);
  const text = `${sentences.join(' ')} [[slow:1500]]`;
  const { postId, due } = await scheduledPost({ post: text, platforms: ['twitter'] });

  // Worker A sends every part; the last one takes 1.5 s on the network while A's 400 ms lease is not renewed.
  let lastPartSent!: () => void;
  const lastPartOnItsWay = new Promise<void>((resolve) => (lastPartSent = resolve));
  const fetchA: typeof globalThis.fetch = (url, init) => {
    if (init?.method === 'POST' && String(init.body ?? '').includes('[[slow:')) lastPartSent();
    return fetch(url, init);
  };
  const runA = workerAStarts(postId, due, fetchA, CALL_DEADLINE_MS);
  await lastPartOnItsWay;
  await sleep(LEASE_MS + 100);

  const logB = await workerBTakesOver(postId, due, CALL_DEADLINE_MS);
  await runA;

  const row = (await svc.sql('SELECT status, network_post_id FROM post_platforms WHERE post_id = ?', [postId])).rows[0];
  const tweets = (await svc.sql("SELECT network_id, text FROM sandbox_posts WHERE platform = 'twitter' AND text LIKE ?", [`%${token} %`])).rows;
  assert.equal(new Set(tweets.map((t) => t.text)).size, tweets.length, `no part twice: ${JSON.stringify(tweets.map((t) => t.text))}`);
  assert.equal(row?.status, 'success', logB.join('\n'));
  assert.equal(String(row?.network_post_id).split(',').length, tweets.length, 'the result names every part');
});

test("a late answer to a worker that lost its lease records nothing: the post's first comment is queued and sent once", async () => {
  const token = `c${Date.now() % 100_000}`;
  const text = `Slow send with a comment ${token} [[slow:1500]]`;
  const comment = `First comment under ${token}`;
  const { postId, due } = await scheduledPost({ post: text, platforms: ['facebook'], firstComment: { comment } });

  // As above: A's send is slow and its lease runs out; B takes over, waits for A's send and adopts the post; A's
  // answer comes meanwhile.
  const { fetchA, sending } = signallingSlowSend();
  const runA = workerAStarts(postId, due, fetchA, CALL_DEADLINE_MS);
  await sending;
  await sleep(LEASE_MS + 100);
  await workerBTakesOver(postId, due, CALL_DEADLINE_MS);
  await runA;

  // The first comment's time comes: every job queued for it runs.
  svc.clock.advance(60_000);
  const jobsC = new JobStore(svc.storage.driver);
  const commentJobs = await jobsC.claim(svc.clock(), 10, [JOB_FIRST_COMMENT], 60_000);
  assert.deepEqual(commentJobs.map((job) => job.subject), [postId], 'one first comment queued');
  for (const job of commentJobs) await engineWith(fetch, jobsC, []).firstComment(job.subject, 'facebook', job.attempts, job);
  const comments = (await svc.sql('SELECT id FROM sandbox_comments WHERE text = ?', [comment])).rows;
  assert.equal(comments.length, 1, 'the comment is under the post once');
  const row = (await svc.sql('SELECT first_comment FROM post_platforms WHERE post_id = ?', [postId])).rows[0];
  assert.equal(JSON.parse(String(row?.first_comment)).status, 'success');
});
