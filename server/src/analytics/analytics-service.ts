/**
 * @module
 * Analytics answers with the storage rules of spec 2.7: every successful answer is stored; metrics the network
 * failed to give are filled from the newest stored data that has them (`backfilledFrom`: when that data was
 * taken); a call that fails as a whole is answered from stored data (`recoveredFrom`); stored data older than
 * 4 days is stale and never used. 475 (linkedin member scopes) is never hidden by stored data: the user must relink.
 */
import { httpStatusOf, type Network } from '@social-link-kit/protocol';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { iso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { AppCredentials } from '../networks/module.js';
import type { NetworkContext, PostAnalytics } from '../networks/analytics-contract.js';
import type { PublishAdapter, PublishFailure } from '../networks/publish-adapter.js';
import { networkContextFor, type NetworkContextDeps } from './network-context.js';
import { ACCOUNT_SUBJECT, type AnalyticsStore, type Snapshot } from './store.js';

/** Spec 2.7: stored data older than this is stale. */
export const STALE_AFTER_MS = 4 * 24 * 60 * 60 * 1000;

export interface AnalyticsEntry {
  id: string;
  status: 'success' | 'error';
  /** Metrics (named as the network names them) and, for youtube, descriptive fields. */
  analytics?: Record<string, unknown>;
  /** When these numbers were taken from the network. */
  lastUpdated?: string;
  backfilledFrom?: string;
  recoveredFrom?: string;
  /** instagram posts from before the business conversion. */
  limited?: true;
  /** youtube: false for a video of another channel (numeric metrics zero). */
  owned?: boolean;
  code?: number;
  message?: string;
}

export interface AccountAnalyticsEntry {
  status: 'success';
  analytics: Record<string, number>;
  lastUpdated: string;
  backfilledFrom?: string;
  recoveredFrom?: string;
}

export class AnalyticsService {
  constructor(
    private readonly deps: NetworkContextDeps & { store: AnalyticsStore; adapters: Record<Network, PublishAdapter> },
  ) {}

  async #context(profileId: string, platform: Network, app?: AppCredentials | null): Promise<NetworkContext> {
    const ctx = await networkContextFor(this.deps, profileId, platform, app);
    if (!ctx) throw new ApiError(400, 163, `No ${platform} account is linked to this profile.`, { action: 'analytics', details: { platform } });
    return ctx;
  }

  /** Analytics of up to 100 network posts of the profile's account on `platform`, one entry per id (same order). */
  async posts(profileId: string, platform: Network, ids: string[], app?: AppCredentials | null): Promise<AnalyticsEntry[]> {
    const adapter = this.deps.adapters[platform];
    if (!adapter.analytics) throw new ApiError(400, 101, `Post analytics are not available for ${platform}.`, { action: 'analytics' });
    const ctx = await this.#context(profileId, platform, app);
    const answer = await adapter.analytics(ctx, ids).catch(unreachable);
    const now = this.deps.clock();
    if (!Array.isArray(answer)) return this.#recoverPosts(profileId, platform, ids, answer, now);
    const byId = new Map(answer.map((item) => [item.id, item]));
    const entries: AnalyticsEntry[] = [];
    for (const id of ids) {
      const item = byId.get(id);
      if (!item || !item.found || (!item.owned && platform !== 'youtube')) {
        entries.push({ id, status: 'error', code: 186, message: `No ${platform} post ${id.slice(0, 64)} was found for this account.` });
        continue;
      }
      entries.push(await this.#fromAnswer(profileId, platform, item, now));
    }
    return entries;
  }

  async #fromAnswer(profileId: string, platform: Network, item: PostAnalytics, now: number): Promise<AnalyticsEntry> {
    const extra = { ...item.descriptive, ...(item.limited && { limited: true }) };
    // A video of another channel: its descriptive fields, every numeric metric zero; nothing of ours to store.
    if (!item.owned) {
      const zeros = Object.fromEntries([...Object.keys(item.metrics), ...item.failedMetrics].map((name) => [name, 0]));
      return { id: item.id, status: 'success', owned: false, analytics: { ...item.descriptive, ...zeros }, lastUpdated: iso(now) };
    }
    if (Object.keys(item.metrics).length > 0) {
      await this.deps.store.add(profileId, platform, item.id, { metrics: item.metrics, extra: Object.keys(extra).length > 0 ? extra : null, takenAt: now });
    }
    const filled = await this.#backfill(profileId, platform, item.id, item.metrics, item.failedMetrics, now);
    return {
      id: item.id,
      status: 'success',
      analytics: { ...item.descriptive, ...filled.metrics },
      lastUpdated: iso(now),
      ...(filled.from !== null && { backfilledFrom: iso(filled.from) }),
      ...(item.limited && { limited: true as const }),
      ...(platform === 'youtube' && { owned: true }),
    };
  }

  /** Fills each failed metric from the newest fresh snapshot that has it; `from` is the oldest snapshot used. */
  async #backfill(profileId: string, platform: Network, subject: string, metrics: Record<string, number>, failed: string[], now: number) {
    const result = { metrics: { ...metrics }, from: null as number | null };
    if (failed.length === 0) return result;
    const snapshots = await this.deps.store.recent(profileId, platform, subject, now - STALE_AFTER_MS);
    for (const name of failed) {
      const source = snapshots.find((snapshot) => typeof snapshot.metrics[name] === 'number');
      if (!source) continue;
      result.metrics[name] = source.metrics[name]!;
      result.from = result.from === null ? source.takenAt : Math.min(result.from, source.takenAt);
    }
    return result;
  }

  /** The whole call failed: each id from its newest fresh snapshot; the network's error when none has any. */
  async #recoverPosts(profileId: string, platform: Network, ids: string[], failure: PublishFailure, now: number): Promise<AnalyticsEntry[]> {
    if (failure.code === 475) throw analyticsFailure(failure);
    const entries: AnalyticsEntry[] = [];
    for (const id of ids) {
      const stored = await this.#latest(profileId, platform, id, now);
      if (!stored) {
        entries.push({ id, status: 'error', code: failure.code, message: failure.message });
        continue;
      }
      const { limited, ...descriptive } = stored.extra ?? {};
      entries.push({
        id,
        status: 'success',
        analytics: { ...descriptive, ...stored.metrics },
        lastUpdated: iso(stored.takenAt),
        recoveredFrom: iso(stored.takenAt),
        ...(limited === true && { limited: true as const }),
      });
    }
    if (entries.every((entry) => entry.status === 'error')) throw analyticsFailure(failure);
    return entries;
  }

  async #latest(profileId: string, platform: Network, subject: string, now: number): Promise<Snapshot | null> {
    const [newest] = await this.deps.store.recent(profileId, platform, subject, now - STALE_AFTER_MS, 1);
    return newest ?? null;
  }

  /** Account-level analytics of the profile's account on `platform`, with the same storage rules. */
  async account(profileId: string, platform: Network, app?: AppCredentials | null): Promise<AccountAnalyticsEntry> {
    const adapter = this.deps.adapters[platform];
    if (!adapter.accountAnalytics) throw new ApiError(400, 101, `Account analytics are not available for ${platform}.`, { action: 'analytics' });
    const ctx = await this.#context(profileId, platform, app);
    const answer = await adapter.accountAnalytics(ctx).catch(unreachable);
    const now = this.deps.clock();
    if ('kind' in answer) {
      if (answer.code === 475) throw analyticsFailure(answer);
      const stored = await this.#latest(profileId, platform, ACCOUNT_SUBJECT, now);
      if (!stored) throw analyticsFailure(answer);
      return { status: 'success', analytics: stored.metrics, lastUpdated: iso(stored.takenAt), recoveredFrom: iso(stored.takenAt) };
    }
    if (Object.keys(answer.metrics).length > 0) await this.deps.store.add(profileId, platform, ACCOUNT_SUBJECT, { metrics: answer.metrics, extra: null, takenAt: now });
    const filled = await this.#backfill(profileId, platform, ACCOUNT_SUBJECT, answer.metrics, answer.failedMetrics, now);
    return { status: 'success', analytics: filled.metrics, lastUpdated: iso(now), ...(filled.from !== null && { backfilledFrom: iso(filled.from) }) };
  }

  /** Takes and stores a snapshot of the given posts (the snapshot job); returns how many posts were stored. */
  async snapshot(profileId: string, platform: Network, ids: string[]): Promise<number> {
    const adapter = this.deps.adapters[platform];
    const ctx = await networkContextFor(this.deps, profileId, platform);
    if (!adapter.analytics || !ctx || ids.length === 0) return 0;
    const answer = await adapter.analytics(ctx, ids).catch(unreachable);
    if (!Array.isArray(answer)) return 0;
    const now = this.deps.clock();
    let stored = 0;
    for (const item of answer) {
      if (!item.found || !item.owned || Object.keys(item.metrics).length === 0) continue;
      const extra = { ...item.descriptive, ...(item.limited && { limited: true }) };
      await this.deps.store.add(profileId, platform, item.id, { metrics: item.metrics, extra: Object.keys(extra).length > 0 ? extra : null, takenAt: now });
      stored++;
    }
    return stored;
  }
}

/** A network that could not be reached at all counts as a failed call (recoverable from stored data). */
function unreachable(error: unknown): PublishFailure {
  return { kind: 'failed', code: 503, message: `The network could not be reached: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300), retryAvailable: true, relink: false };
}

/** The network's failure in the spec's envelope: 444 is a 429 (wait, no relink), 475 a 403 (relink). */
function analyticsFailure(failure: PublishFailure): ApiError {
  // 419: no integrator's app to sign the read with (X, spec 5.6): the caller's to fix, not the network's failure.
  // The code's row of the error table; a relink is the caller's to fix (403); a network's own code is a 502.
  const status = failure.code === 429 ? 429 : failure.relink ? 403 : httpStatusOf(failure.code, 502);
  return new ApiError(status as ContentfulStatusCode, failure.code, failure.message, {
    action: 'analytics',
    retryAvailable: failure.code !== 475 && failure.code !== 419 && !failure.relink,
    details: { ...(failure.relink || failure.code === 475 ? { relink: true } : {}), ...(failure.retryAfterMs !== undefined && { retryAfterMs: failure.retryAfterMs }) },
  });
}
