/**
 * Shared steps of the publishing tests: a service whose job worker polls fast, sandbox accounts linked through
 * `POST /api/sandbox/accounts`, and waits on the post's recorded state (never fixed sleeps).
 */
import assert from 'node:assert/strict';
import type { Network } from '../../src/protocol/index.js';
import { startTestService, type TestService } from './helpers.js';

/** Job worker timing for a test: claims often, short leases so a killed holder is taken over quickly. */
export const FAST_JOBS = { JOBS_POLL_MS: '20', JOBS_LEASE_MS: '1500', JOBS_RETRY_BASE_MS: '50', JOBS_RETRY_MAX_MS: '200' };

export async function startPublishingService(options: { plan?: 'free' | 'premium' | 'business'; maxPack?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  return startTestService({
    account: { plan: options.plan ?? 'business', ...(options.maxPack && { maxPack: true }) },
    env: { ...FAST_JOBS, ...options.env },
  });
}

export async function linkSandboxAccounts(svc: TestService, platforms: Network[], profileKey?: string): Promise<void> {
  for (const platform of platforms) {
    const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform }, ...(profileKey && { headers: { 'Profile-Key': profileKey } }) });
    assert.equal(linked.status, 200, JSON.stringify(linked.json));
  }
}

/** Polls the post (through the API) until `done` holds; the wait is bounded by the test runner's timeout. */
export async function waitForPost(svc: TestService, id: string, done: (post: Record<string, any>) => boolean, headers: Record<string, string> = {}) {
  for (;;) {
    const got = await svc.api('GET', `/post/${id}`, { headers });
    if (got.status === 200 && done(got.json)) return got.json;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the sandbox network holds for a post: rows of the sandbox's own table, by the client key the adapter sent. */
export async function sandboxPostsFor(svc: TestService, postId: string, platform: Network) {
  const { rows } = await svc.sql('SELECT * FROM sandbox_posts WHERE client_key = ?', [`${postId}:${platform}`]);
  return rows;
}
