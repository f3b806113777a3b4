/**
 * Shared steps of the publishing tests: a service whose job worker polls fast, sandbox accounts linked through
 * `POST /api/sandbox/accounts`, and waits on the post's recorded state (never fixed sleeps).
 */
import assert from 'node:assert/strict';
import type { Network } from '@social-link-kit/protocol';
import { startTestService, type TestService } from '../support/test-service.js';

/**
 * Job worker timing for a test: claims often, short leases so a killed holder is taken over quickly; the first
 * comment right after its post (spec: about 20 s), since the create answer waits for it.
 */
export const FAST_JOBS = { JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1500', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200', PUBLISH_FIRST_COMMENT_DELAY_MS: '0' };

export async function startPublishingService(options: { plan?: 'free' | 'premium' | 'business'; maxPack?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  return startTestService({
    account: { plan: options.plan ?? 'business', ...(options.maxPack !== undefined && { maxPack: options.maxPack }) },
    env: { ...FAST_JOBS, ...options.env },
  });
}

export async function linkSandboxAccounts(svc: TestService, platforms: Network[], profileKey?: string): Promise<void> {
  for (const platform of platforms) {
    const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform }, ...(profileKey && { headers: { 'Profile-Key': profileKey } }) });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
  }
}

/** Polls the post (through the API) until `done` holds; gives up after many polls with what it last saw and the service's log. */
export async function waitForPost(svc: TestService, id: string, done: (post: Record<string, any>) => boolean, headers: Record<string, string> = {}) {
  let last: unknown = null;
  for (let polls = 0; polls < 1500; polls++) {
    const got = await svc.api('GET', `/post/${id}`, { headers });
    if (got.status === 200 && done(got.json)) return got.json;
    last = got.json;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const log = svc.logLines.filter((line) => !/^(GET|POST|PATCH|PUT|DELETE) \//.test(line)).slice(-20);
  const jobs = (await svc.sql('SELECT kind, run_at, attempts, lease_until, done_at, failed_at, last_error FROM jobs WHERE subject = ?', [id])).rows;
  throw new Error(`post ${id} never reached the expected state: ${JSON.stringify(last)}\njobs: ${JSON.stringify(jobs)}\nclock: ${svc.clock()}\n${log.join('\n')}`);
}

/** What the sandbox network holds for a post: rows of the sandbox's own table, by the client key the adapter sent. */
export async function sandboxPostsFor(svc: TestService, postId: string, platform: Network) {
  let { rows } = await svc.sql('SELECT * FROM sandbox_posts WHERE client_key = ?', [`${postId}:${platform}`]);
  // Networks whose API takes no client key (twitter): the network ids the service recorded for the post.
  if (rows.length === 0) {
    const recorded = await svc.sql('SELECT network_post_id FROM post_platforms WHERE post_id = ? AND platform = ?', [postId, platform]);
    const ids = String(recorded.rows[0]?.network_post_id ?? '').split(',').filter(Boolean);
    if (ids.length > 0) rows = (await svc.sql(`SELECT * FROM sandbox_posts WHERE platform = ? AND network_id IN (${ids.map(() => '?').join(', ')})`, [platform, ...ids])).rows;
  }
  // Typed as non-empty for destructuring; tests that expect a post assert the length first or read fields of it.
  return rows as [Record<string, any>, ...Record<string, any>[]];
}
