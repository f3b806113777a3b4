/**
 * @module
 * Analytics snapshots on a schedule, so a later failure has stored data to recover from (spec 2.7) and the demo
 * can draw metrics over time. One `analytics-snapshot` job per network (subject `analytics:<network>`) runs every
 * `intervalMs` of its network and takes at most `postsPerRun` posts published in the last `windowMs`, newest first,
 * in batches of 100 ids per call: the network's rate budget decides both numbers. The job reschedules itself (one
 * row per network, never a second one), so a crashed run is taken over by the next worker when its lease ends.
 */
import type { Network } from '@social-link-kit/protocol';
import { ANALYTICS_PLATFORMS, MAX_ANALYTICS_IDS } from '@social-link-kit/protocol/analytics/index.js';
import type { Clock } from '../core/clock.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { Job, JobStore } from '../core/jobs/job-store.js';
import type { JobHandler, JobOutcome } from '../core/jobs/job-worker.js';
import type { AnalyticsService } from './analytics-service.js';

export const JOB_ANALYTICS_SNAPSHOT = 'analytics-snapshot';

const HOUR = 60 * 60 * 1000;

export interface SnapshotBudget {
  intervalMs: number;
  postsPerRun: number;
}

/**
 * Per network: how often and how many posts. Tight where the network's analytics budget is tight (twitter's
 * per-15-minute app limits, linkedin's daily member calls); hourly where page insights allow it.
 */
export const SNAPSHOT_BUDGETS: Record<(typeof ANALYTICS_PLATFORMS)[number], SnapshotBudget> = {
  facebook: { intervalMs: HOUR, postsPerRun: 200 },
  instagram: { intervalMs: HOUR, postsPerRun: 200 },
  threads: { intervalMs: 2 * HOUR, postsPerRun: 200 },
  tiktok: { intervalMs: 2 * HOUR, postsPerRun: 100 },
  youtube: { intervalMs: 3 * HOUR, postsPerRun: 200 },
  linkedin: { intervalMs: 6 * HOUR, postsPerRun: 100 },
  twitter: { intervalMs: 6 * HOUR, postsPerRun: 100 },
};

/** Posts older than this are no longer snapshotted (their numbers have settled). */
export const SNAPSHOT_WINDOW_MS = 7 * 24 * HOUR;

const subjectOf = (platform: Network) => `analytics:${platform}`;

/** Adds the per-network jobs that are missing (first start, or a job failed); runs them at once. */
export async function ensureSnapshotJobs(db: SqlDriver, jobs: JobStore, now: number): Promise<void> {
  for (const platform of ANALYTICS_PLATFORMS) {
    const open = await db.get('SELECT id FROM jobs WHERE kind = ? AND subject = ? AND done_at IS NULL AND failed_at IS NULL', [JOB_ANALYTICS_SNAPSHOT, subjectOf(platform)]);
    if (!open) await jobs.add({ kind: JOB_ANALYTICS_SNAPSHOT, subject: subjectOf(platform), payload: { platform }, runAt: now }, now);
  }
}

export function snapshotJobHandlers(options: { db: SqlDriver; service: AnalyticsService; clock: Clock; log: (line: string) => void }): Record<string, JobHandler> {
  const { db, service, clock, log } = options;
  return {
    async [JOB_ANALYTICS_SNAPSHOT](job: Job): Promise<JobOutcome> {
      const platform = job.payload.platform as (typeof ANALYTICS_PLATFORMS)[number];
      const budget = SNAPSHOT_BUDGETS[platform];
      if (!budget) return { kind: 'failed', error: `no snapshot budget for ${String(platform)}` };
      const now = clock();
      const rows = await db.all(
        `SELECT p.profile_id, pp.network_post_id FROM post_platforms pp JOIN posts p ON p.id = pp.post_id
         WHERE pp.platform = ? AND pp.status = 'success' AND pp.network_post_id IS NOT NULL AND pp.finished_at >= ? AND p.deleted_at IS NULL
         ORDER BY pp.finished_at DESC LIMIT ${budget.postsPerRun}`,
        [platform, now - SNAPSHOT_WINDOW_MS],
      );
      const byProfile = new Map<string, string[]>();
      for (const row of rows) byProfile.set(row.profile_id as string, [...(byProfile.get(row.profile_id as string) ?? []), row.network_post_id as string]);
      let stored = 0;
      for (const [profileId, ids] of byProfile) {
        for (let start = 0; start < ids.length; start += MAX_ANALYTICS_IDS) {
          // One profile's failure (unlinked, throttled) must not stop the others' snapshots.
          stored += await service.snapshot(profileId, platform, ids.slice(start, start + MAX_ANALYTICS_IDS)).catch((error: unknown) => {
            log(`analytics snapshot ${platform}: ${error instanceof Error ? error.message : String(error)}`);
            return 0;
          });
        }
      }
      if (stored > 0) log(`analytics snapshot ${platform}: ${stored} post(s)`);
      return { kind: 'retry', runAt: now + budget.intervalMs };
    },
  };
}
