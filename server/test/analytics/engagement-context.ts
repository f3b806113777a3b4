/**
 * Shared step of the per-network analytics tests: a sandbox account linked to the primary profile, and the context
 * the analytics service would give its adapter (the network's own sandbox base URL, the service clock), with a fetch
 * that records each call's method, path and query, so a test can see which of the network's paths were read.
 */
import type { Network } from '@social-link-kit/protocol';
import type { NetworkContext } from '../../src/networks/analytics-contract.js';
import type { PublishFailure } from '../../src/networks/publish-adapter.js';
import { publishBaseUrl } from '../../src/networks/index.js';
import { SANDBOX_TWITTER_APP } from '@social-link-kit/sandbox/networks/twitter-api.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import type { TestService } from '../support/test-service.js';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string | null;
}

export async function engagementContext(svc: TestService, platform: Network) {
  const linked = await linkSandboxAccount(svc, platform);
  const calls: RecordedCall[] = [];
  const ctx: NetworkContext = {
    account: linked.account,
    baseUrl: publishBaseUrl(platform, svc.url, true)!,
    fetch: (url, init) => {
      const address = new URL(String(url));
      calls.push({ method: init?.method ?? 'GET', path: address.pathname, query: address.searchParams, body: typeof init?.body === 'string' ? init.body : null });
      return fetch(url, init);
    },
    now: () => svc.clock(),
    log: () => {},
    ...(platform === 'twitter' && { appCredentials: async () => SANDBOX_TWITTER_APP }),
  };
  return { ctx, calls, accountId: linked.account.accountId };
}

/** Asserts the value is not a failure and narrows it. */
export function ok<T>(value: T): Exclude<T, PublishFailure> {
  const failure = value as Partial<PublishFailure> | null;
  if (failure?.kind === 'failed') throw new Error(`unexpected failure ${failure.code}: ${failure.message}`);
  return value as Exclude<T, PublishFailure>;
}
