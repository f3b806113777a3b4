/**
 * The crash matrix (issue 30): for every network of the protocol's catalogue, two service instances on one database
 * (SQLite here, PostgreSQL under scripts/with-postgres.sh). One instance is SIGKILLed at each step boundary of a
 * publish to that network (PUBLISH_TEST_CRASH_AT: after prepare, after "commit started", after the commit, between
 * thread parts, inside the first comment) and started again for the next; the other keeps running and takes the
 * interrupted work over. The account holds other posts made before and after each kill, and a twin with equal content
 * for each interrupted post (made by the service where the network allows equal content, else made on the network
 * outside the service ten minutes earlier). Then one slow answer past the lease per network. At the end: 0 duplicates
 * on the sandbox network, 0 lost, 0 stuck, `unconfirmed` only where docs/publishing-guarantee.md says so.
 * One process pair per network, networks two at a time; each network's figures are printed (`# matrix`).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { NETWORKS, type Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { exited, isAlive, startServicePair, type ServicePair } from '../support/service-pair.js';
import type { ChildService } from '../support/child-service.js';
import { stopChild } from '../support/stop-child.js';
import { COMMIT_IN_A_JOB, killPoints, NO_THREAD_STEP, refusesEqualContent, requestFor, verdict, type KillPoint, type NetworkRow, type ServicePost } from './crash-matrix-plan.js';

const LEASE_MS = 1000;
const ENV = {
  JOBS_POLL_MS: '25',
  JOBS_LEASE_MS: String(LEASE_MS),
  JOBS_RETRY_BASE_MS: '50',
  JOBS_RETRY_MAX_MS: '200',
  PUBLISH_FIRST_COMMENT_DELAY_MS: '1',
  ACCOUNT_HEALTH_CHECKS: 'off',
  ANALYTICS_SNAPSHOTS: 'off',
  MEDIA_CONVERSION_WORKERS: '1',
};
/** How long a network run may take to settle after its last kill. */
const SETTLE_MS = 60_000;
const only = process.env.MATRIX_NETWORKS?.split(',') as Network[] | undefined;

async function publish(pair: ServicePair, via: ChildService, request: Record<string, unknown>) {
  const answer = await pair.api(via, 'POST', '/post', request);
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return answer.json;
}

/** The record's own creation time (each network names it its way) set to `at`, in the format it had. */
function backdated(record: string, at: number): string {
  const fields = JSON.parse(record) as Record<string, unknown>;
  for (const key of ['createTime', 'created_at', 'createdAt', 'created_time', 'timestamp', 'created_utc']) {
    const value = fields[key];
    if (typeof value === 'string') fields[key] = new Date(at).toISOString();
    if (typeof value === 'number') fields[key] = value > 1e11 ? at : Math.floor(at / 1000);
  }
  return JSON.stringify(fields);
}

/** A post with equal content made on the network outside the service, ten minutes earlier (beyond reconcile's clock slack). */
async function foreignTwin(pair: ServicePair, network: Network, model: string, token: string, text: string, index: number) {
  const [row] = await pair.rows<Record<string, unknown>>(`SELECT * FROM sandbox_posts WHERE platform = ? AND text LIKE ? AND status = 'published'`, [network, `%${model}%`]);
  assert.ok(row, `${network}: the model post is on the network`);
  const networkId = `${String(row.network_id)}9${index}`;
  const originalText = String(row.text);
  const twinText = originalText.split(model).join(token).replace(`Matrix post ${token}`, text);
  const at = Date.now() - 10 * 60_000;
  const record = row.record === null ? null : backdated(String(row.record).split(String(row.network_id)).join(networkId).split(model).join(token), at);
  await pair.run(
    `INSERT INTO sandbox_posts (id, platform, account_id, network_id, client_key, text, media, record, status, error, created_at, ready_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, 'published', NULL, ?, ?)`,
    [`sbp_twin_${token}`, network, row.account_id, networkId, twinText, row.media, record, at, at],
  );
}

/** Never polls for due jobs: an instance that only runs the publish of the request it was sent. */
const NO_POLLING = { JOBS_POLL_MS: '1000000000' };

async function runNetwork(network: Network): Promise<{ kills: number; posts: number; ms: number }> {
  const started = Date.now();
  const mark = (what: string) => process.env.MATRIX_DEBUG && console.log(`${network} +${Date.now() - started} ms ${what}`);
  const points = killPoints(network);
  const comments = points.includes('inside-first-comment');
  // Whoever runs the first comment (a job any instance may claim) dies inside it, the survivor too.
  const pair = await startServicePair(ENV, { JOBS_POLL_MS: '250', ...(comments && { PUBLISH_TEST_CRASH_AT: 'inside-first-comment' }) });
  const run = randomBytes(3).toString('hex');
  const tokenOf = (label: string) => `${label}${run}`;
  const pointOf = new Map<string, KillPoint | null>();
  try {
    // Every instance at once (their start-up is most of the cost): one per kill point, and a competitor polling fast.
    // Where the commit runs in a later job, a victim must poll, so only one is alive at a time (started in the loop).
    const inJob = COMMIT_IN_A_JOB.includes(network);
    const victimEnv = (point: KillPoint) => ({ PUBLISH_TEST_CRASH_AT: point, ...(point === 'inside-first-comment' || inJob ? { JOBS_POLL_MS: '10' } : NO_POLLING) });
    const [competitor, ...ready] = await Promise.all([
      pair.startInstance({ JOBS_POLL_MS: '10', ...(comments && { PUBLISH_TEST_CRASH_AT: 'inside-first-comment' }) }),
      ...(inJob ? [] : points.map((point) => pair.startInstance(victimEnv(point)))),
    ]);
    mark('instances up');
    assert.equal((await pair.api(pair.survivor, 'POST', '/sandbox/accounts', { platform: network })).status, 200);
    const seed = requestFor(network, tokenOf('seed'), pair.url);
    await publish(pair, pair.survivor, seed.request);
    pointOf.set(seed.token, null);
    // A slow network: the answer comes after 2.5 leases, while the competitor polls for due work every 10 ms.
    const slow = requestFor(network, tokenOf('slow'), pair.url, { extraText: ` [[slow:${LEASE_MS * 2.5}]]` });
    await publish(pair, pair.survivor, slow.request);
    pointOf.set(slow.token, null);
    await stopChild(competitor!.process, 'SIGKILL');
    mark('slow done');

    const equalContentAllowed = PUBLISHING_CAPABILITIES[network].duplicateCheck === 'none';
    const notKilled: string[] = [];
    let previous: string | null = null;
    for (const [index, point] of points.entries()) {
      // A polling victim would take over the previous interrupted post and die on it at its own point (misattributed):
      // the survivor finishes that post first.
      if (inJob && previous) await settledUnkilled(pair, previous, () => false);
      const victim = inJob ? await pair.startInstance(victimEnv(point)) : ready[index]!;
      const planned = requestFor(network, tokenOf(`k${index}x`), pair.url, { thread: point === 'between-thread-parts', comment: point === 'inside-first-comment' });
      // The twin: same text, published before (by the service where the network allows equal content).
      if (equalContentAllowed) {
        // Equal content, without the first comment (its own comment would be the run's second of that text).
        const { firstComment: _, ...twin } = planned.request;
        await publish(pair, pair.survivor, twin);
        pointOf.set(planned.token, null);
      } else if (point !== 'between-thread-parts' && !refusesEqualContent(network)) {
        await waitOnNetwork(pair, network, seed.token);
        await foreignTwin(pair, network, seed.token, planned.token, planned.text, index);
      }
      const answer = pair.api(victim, 'POST', '/post', planned.request).catch(() => null);
      if (process.env.MATRIX_DEBUG) void answer.then((a) => a && a.status !== 200 && console.log(point, 'refused:', JSON.stringify(a.json).slice(0, 800)));
      pointOf.set(planned.token, point);
      previous = planned.token;
      // The kill lands inside the request (immediate posts run inline, the answer waits for a first comment); a point
      // the publish never reaches lets it answer (no answer at all: the process is dying, its exit follows).
      const survivor = pair.survivor;
      let decided = false;
      const died = await Promise.race([
        exited(victim).then(() => true),
        exited(survivor).then(() => true),
        answer.then((a) => (a === null ? sleep(5000) : a.status === 200 ? settledUnkilled(pair, planned.token, () => decided) : undefined)).then(() => false),
      ]);
      decided = true;
      // Refused at create (bluesky's adapter takes no thread yet, though the catalogue says it threads): no post to count.
      if ((await Promise.race([answer, sleep(0).then(() => undefined)]))?.status === 400) pointOf.delete(planned.token);
      if (!died && !(point === 'between-thread-parts' && NO_THREAD_STEP.includes(network))) {
        notKilled.push(point);
        if (process.env.MATRIX_DEBUG) console.log(point, JSON.stringify(await answer), victim.logs.join('').slice(-3000));
      }
      await stopChild(victim.process, 'SIGKILL');
      if (!isAlive(survivor)) await pair.restartSurvivor();
      mark(`killed ${point}`);
      // Another post on the account after the crash, before the survivor reconciles.
      const other = requestFor(network, tokenOf(`o${index}x`), pair.url);
      await publish(pair, pair.survivor, other.request);
      pointOf.set(other.token, null);
    }

    const { posts, rows, comments: commentRows } = await settle(pair, network, pointOf);
    mark('settled');
    const found = verdict(network, posts, rows, commentRows);
    if (process.env.MATRIX_DEBUG && found.stuck.length > 0) {
      console.log('survivor alive:', isAlive(pair.survivor), JSON.stringify(await pair.rows('SELECT kind, subject, run_at, attempts, lease_until, done_at, failed_at, last_error FROM jobs WHERE done_at IS NULL')));
      console.log(pair.survivor.logs.join('').slice(-6000));
    }
    assert.deepEqual(found.duplicates, [], 'duplicates');
    assert.deepEqual(found.lost, [], 'lost');
    assert.deepEqual(found.stuck, [], 'stuck');
    assert.deepEqual(found.unexpectedUnconfirmed, [], 'unconfirmed where not documented');
    assert.deepEqual(notKilled, [], `${network}: kill points the publish never reached`);
    console.log(`# matrix ${pair.backend} ${network}: ${points.length} kills, ${posts.length} posts, ${found.unconfirmed.length} unconfirmed (${found.unconfirmed.join(', ') || 'none'}), ${Date.now() - started} ms`);
    return { kills: points.length, posts: posts.length, ms: Date.now() - started };
  } finally {
    await pair.close();
  }
}

/**
 * Resolves once the post is through without the kill (its network row terminal or pending on the network, its first
 * comment settled), or after SETTLE_MS: a point the publish never reaches. Not a fixed wait: under load a job may
 * take long to reach its point, and a victim killed at an arbitrary moment instead would prove nothing.
 */
async function settledUnkilled(pair: ServicePair, token: string, over: () => boolean) {
  const deadline = Date.now() + SETTLE_MS;
  while (Date.now() < deadline) {
    // The race it ran in is decided (the victim died): stop reading, the database may be dropped soon.
    if (over()) return;
    // Every post with the token (a twin made before is one of them).
    const rows = await pair.rows<{ request: string; status: string; first_comment: string | null }>(
      'SELECT p.request, pp.status, pp.first_comment FROM posts p JOIN post_platforms pp ON pp.post_id = p.id WHERE p.request LIKE ?',
      [`%${token}%`],
    );
    // Pending on the network is through unless a first comment is still to come (tiktok's follows the processing).
    const through = (row: (typeof rows)[number]) =>
      (row.status === 'success' || row.status === 'error' || (row.status === 'pending' && !row.request.includes('"firstComment"'))) && !(row.first_comment && /"status":"pending"/.test(row.first_comment));
    if (rows.length > 0 && rows.every(through)) return;
    await sleep(50);
  }
  if (process.env.MATRIX_DEBUG) console.log(token, 'not through:', JSON.stringify(await pair.rows('SELECT pp.status, pp.first_comment, pp.error FROM posts p JOIN post_platforms pp ON pp.post_id = p.id WHERE p.request LIKE ?', [`%${token}%`])));
}

async function waitOnNetwork(pair: ServicePair, network: Network, token: string) {
  for (let polls = 0; polls < 400; polls++) {
    const [row] = await pair.rows(`SELECT id FROM sandbox_posts WHERE platform = ? AND text LIKE ? AND status = 'published'`, [network, `%${token}%`]);
    if (row) return;
    await sleep(25);
  }
  assert.fail(`${network}: ${token} never reached the network`);
}

/** Waits until every post of the run is terminal (or SETTLE_MS passed), then reads the service's and the network's rows. */
async function settle(pair: ServicePair, network: Network, pointOf: Map<string, KillPoint | null>) {
  const deadline = Date.now() + SETTLE_MS;
  let posts: ServicePost[] = [];
  for (;;) {
    // The survivor may die inside a first comment it took over (it runs with that kill point): up again, as after a crash.
    if (!isAlive(pair.survivor)) await pair.restartSurvivor();
    const stored = await pair.rows<{ request: string; status: string; network_post_id: string | null; error: string | null; first_comment: string | null }>(
      'SELECT p.request, pp.status, pp.network_post_id, pp.error, pp.first_comment FROM posts p JOIN post_platforms pp ON pp.post_id = p.id',
    );
    posts = stored.map((row) => {
      const token = [...pointOf.keys()].find((t) => row.request.includes(t)) ?? '?';
      return { token, status: row.status, network_post_id: row.network_post_id, error: row.error, first_comment: row.first_comment, point: pointOf.get(token) ?? null };
    });
    const pendingComment = (post: ServicePost) => post.first_comment !== null && !/"status":"(success|error)"/.test(post.first_comment) && !(network === 'tiktok' && /"status":"pending"/.test(post.first_comment));
    const open = posts.filter((post) => !['success', 'error'].includes(post.status) || pendingComment(post));
    // Every planned token is stored (a twin shares its post's token) and nothing is open.
    if ((open.length === 0 && new Set(posts.map((post) => post.token)).size === pointOf.size) || Date.now() > deadline) break;
    await sleep(100);
  }
  // client_key: on threads, the id a chain's part answers (the other networks keep the service's key there).
  const rows = await pair.rows<NetworkRow>(`SELECT network_id, text, ${network === 'threads' ? 'client_key' : 'NULL'} AS reply_to FROM sandbox_posts WHERE platform = ? AND status = 'published' AND id NOT LIKE 'sbp_twin_%' AND text NOT LIKE 'First comment %'`, [network]);
  const comments = [
    ...(await pair.rows<NetworkRow>('SELECT id AS network_id, text FROM sandbox_comments')),
    // A bluesky comment is a reply record, a post of its own.
    ...(await pair.rows<NetworkRow>(`SELECT network_id, text FROM sandbox_posts WHERE text LIKE 'First comment %' AND status = 'published' AND platform NOT LIKE '%:%'`)),
  ];
  return { posts, rows, comments };
}

describe(`the crash matrix on ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, two instances`, { concurrency: Number(process.env.MATRIX_CONCURRENCY ?? 2) }, () => {
  for (const network of NETWORKS.filter((n) => !only || only.includes(n))) {
    it(`${network}: SIGKILL at ${killPoints(network).join(', ')}; a slow answer`, { timeout: 360_000 }, async () => {
      try {
        await runNetwork(network);
      } catch (error) {
        // A kill point the victim never reached leaves that point untested, not a duplicate or a loss (those are
        // asserted first): under a loaded machine the other instance can take the post over before the victim gets
        // there. The network runs once more, and every point must land then.
        if (!(error instanceof Error && error.message.startsWith(`${network}: kill points the publish never reached`))) throw error;
        console.log(`# matrix ${network}: ${error.message.split('\n')[0]}; running it once more`);
        await runNetwork(network);
      }
    });
  }
});
