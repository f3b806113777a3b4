/**
 * @module
 * The one lease-claim jobs table (migration 6) on SQLite and PostgreSQL. A claim takes due rows of the kinds its
 * worker runs whose lease is free or expired and leases them with a fresh token, in one statement (PostgreSQL:
 * `FOR UPDATE SKIP LOCKED`, so instances claim disjoint rows; SQLite: the write transaction holds the file).
 * Completing, failing and rescheduling name the lease token, so a worker whose lease expired (and whose row another
 * worker took) changes nothing. Due times (`run_at`, `done_at`...) are epoch ms from the service clock; leases
 * (`lease_until`) run on the lease clock, real time, for every kind: a jump of the service clock (a test moving it,
 * a schedule catching up) must not expire a lease whose holder is still working (issue 30), and the `webhook` rows
 * (the outbox, webhooks/webhook-job.ts) are leased on real time by their own worker too. On PostgreSQL the lease
 * clock is the database server's, read inside each statement: instances on hosts whose wall clocks disagree still
 * agree on who holds a lease. On SQLite (one machine) it is this process's wall clock.
 */
import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '../clock.js';
import type { SqlDriver, SqlExecutor } from '../db/sql-driver.js';
import { newTimeOrderedId } from '../tokens.js';

export interface Job {
  id: string;
  kind: string;
  /** What the job is about (a post id): lets a post's jobs be found and cancelled. */
  subject: string;
  payload: Record<string, unknown>;
  runAt: number;
  /** Claims so far, this one included. */
  attempts: number;
  leaseToken: string;
  /** When it was added (epoch ms). */
  createdAt: number;
}

export interface NewJob {
  /** Given when the job's id must be known to others (a webhook event's id is its delivery id); else a new one. */
  id?: string;
  kind: string;
  subject: string;
  payload?: Record<string, unknown>;
  runAt: number;
}

export class JobStore {
  readonly #db: SqlDriver;
  /** Real time, never the service clock (see the module comment); injectable so a test can expire a lease (SQLite). */
  readonly #leaseClock: Clock;

  constructor(db: SqlDriver, leaseClock: Clock = systemClock) {
    this.#db = db;
    this.#leaseClock = leaseClock;
  }

  /** The lease clock as SQL with its parameters: the database's clock on PostgreSQL, else this process's (bound). */
  #leaseNow(): [sql: string, params: unknown[]] {
    const server = this.#db.dialect.databaseClockMs;
    return server === null ? ['?', [this.#leaseClock()]] : [server, []];
  }

  /** Adds a job; pass `tx` to add it in the transaction of the change it belongs to. */
  async add(job: NewJob, now: number, tx: SqlExecutor = this.#db): Promise<string> {
    return JobStore.addIn(tx, job, now);
  }

  /** Adds a job through any executor (a feature's open transaction), without a store at hand. */
  static async addIn(tx: SqlExecutor, job: NewJob, now: number): Promise<string> {
    // Time-ordered (tokens.ts): a job id is internal, never a capability (the lease token is), and new rows land at
    // the end of the id index instead of on a random page of it (issue 31).
    const id = job.id ?? newTimeOrderedId('job_', now);
    await tx.run(`INSERT INTO jobs (id, kind, subject, payload, run_at, created_at) VALUES (?, ?, ?, ?, ?, ?)`, [
      id,
      job.kind,
      job.subject,
      JSON.stringify(job.payload ?? {}),
      job.runAt,
      now,
    ]);
    return id;
  }

  /**
   * Adds a job already leased to the caller (who runs it at once, e.g. an immediate post inline). If the caller
   * dies, the lease runs out (`leaseMs` of real time) and a worker takes the job over.
   */
  async addLeased(job: NewJob, now: number, leaseMs: number, tx: SqlExecutor = this.#db): Promise<Job> {
    const id = newTimeOrderedId('job_', now);
    const leaseToken = randomUUID();
    const payload = job.payload ?? {};
    const [leaseNow, leaseNowParams] = this.#leaseNow();
    await tx.run(
      `INSERT INTO jobs (id, kind, subject, payload, run_at, attempts, lease_token, lease_until, created_at) VALUES (?, ?, ?, ?, ?, 1, ?, ${leaseNow} + ?, ?)`,
      [id, job.kind, job.subject, JSON.stringify(payload), job.runAt, leaseToken, ...leaseNowParams, leaseMs, now],
    );
    return { id, kind: job.kind, subject: job.subject, payload, runAt: job.runAt, attempts: 1, leaseToken, createdAt: now };
  }

  /**
   * Leases up to `limit` jobs of `kinds` due at `now` (service clock) for `leaseMs` of real time, in one statement:
   * the rows are picked (PostgreSQL: skipping rows another instance holds) and leased together, with one token for
   * the batch (a job is always named by id and token, so sharing the token across the batch lets nobody else touch it).
   * Jobs of the networks in `skipNetworks` (`payload.platform`; the worker's networks at their cap) are left for a
   * later claim.
   */
  async claim(now: number, limit: number, kinds: readonly string[], leaseMs: number, skipNetworks: readonly string[] = []): Promise<Job[]> {
    if (kinds.length === 0) return [];
    const leaseToken = randomUUID();
    const [leaseNow, leaseNowParams] = this.#leaseNow();
    const skip = skipNetworks.length
      ? ` AND COALESCE(${this.#db.dialect.jsonText('j.payload', 'platform')}, '') NOT IN (${skipNetworks.map(() => '?').join(', ')})`
      : '';
    // Oldest due first, then in the order they were added (a webhook's events reach its receiver in order).
    const order = this.#db.dialect.outboxInsertOrder;
    const rows = await this.#db.transaction((tx) =>
      tx.all(
        `UPDATE jobs SET lease_token = ?, lease_until = ${leaseNow} + ?, attempts = attempts + 1
         WHERE id IN (SELECT j.id FROM jobs j
           WHERE j.kind IN (${kinds.map(() => '?').join(', ')}) AND j.done_at IS NULL AND j.failed_at IS NULL AND j.run_at <= ?
             AND (j.lease_until IS NULL OR j.lease_until <= ${leaseNow})${skip}
           ORDER BY j.run_at, j.created_at, j.${order} LIMIT ?${this.#db.dialect.forUpdateSkipLocked('j')})
         RETURNING id, kind, subject, payload, run_at, attempts, created_at, ${order} AS insert_order`,
        [leaseToken, ...leaseNowParams, leaseMs, ...kinds, now, ...leaseNowParams, ...skipNetworks, limit],
      ),
    );
    const position = (row: Record<string, unknown>) => [Number(row.run_at), Number(row.created_at), Number(row.insert_order)];
    return rows
      .sort((a, b) => {
        const [x, y] = [position(a), position(b)];
        return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
      })
      .map((row) => ({
        id: row.id as string,
        kind: row.kind as string,
        subject: row.subject as string,
        payload: JSON.parse(row.payload as string) as Record<string, unknown>,
        runAt: Number(row.run_at),
        attempts: Number(row.attempts),
        leaseToken,
        createdAt: Number(row.created_at),
      }));
  }

  /**
   * Renews a held lease for `leaseMs` of lease-clock time from now; false when the lease was lost (another worker
   * took the job). Pass `tx` to make a write conditional on holding it.
   */
  async renew(job: Job, leaseMs: number, tx: SqlExecutor = this.#db): Promise<boolean> {
    const [leaseNow, leaseNowParams] = this.#leaseNow();
    return (await tx.run(`UPDATE jobs SET lease_until = ${leaseNow} + ? WHERE id = ? AND lease_token = ? AND done_at IS NULL`, [...leaseNowParams, leaseMs, job.id, job.leaseToken])) === 1;
  }

  /**
   * Renews every lease of `jobs` that is still held, in one statement per 100 jobs (a worker holds hundreds: one
   * write per renewal tick, not one per job); returns the jobs renewed, as `id:token`. A job missing from the answer
   * was lost (another worker took it, or it finished).
   */
  async renewAll(jobs: readonly Job[], leaseMs: number): Promise<Set<string>> {
    const renewed = new Set<string>();
    for (let from = 0; from < jobs.length; from += 100) {
      const chunk = jobs.slice(from, from + 100);
      const [leaseNow, leaseNowParams] = this.#leaseNow();
      const rows = await this.#db.all(
        `UPDATE jobs SET lease_until = ${leaseNow} + ? WHERE done_at IS NULL AND (id, lease_token) IN (VALUES ${chunk.map(() => '(?, ?)').join(', ')}) RETURNING id, lease_token`,
        [...leaseNowParams, leaseMs, ...chunk.flatMap((job) => [job.id, job.leaseToken])],
      );
      for (const row of rows) renewed.add(`${String(row.id)}:${String(row.lease_token)}`);
    }
    return renewed;
  }

  /**
   * The fence before an irreversible call, in one statement: true only when this holder's lease (its token) is still
   * on the row and has not run out by the lease clock (the database's, on PostgreSQL); it is then extended by
   * `leaseMs`, and `call_until` notes that the call may be answered for `callMs` more (a takeover waits for that,
   * callPendingMs). False: do not make the call.
   * It need only survive a process crash (on SQLite it waits for no sync of its own; issue 31): what it guards
   * against is a live worker — paused, or on a lost lease — sending while another takes the job over. A power loss
   * ends every worker of the one host a SQLite file lives on, and their calls with them; what resolves such a crash
   * is the "commit started" record, which is synced before the first send (lease-held-call.ts).
   */
  async fence(job: Job, leaseMs: number, callMs = 0): Promise<boolean> {
    const [leaseNow, leaseNowParams] = this.#leaseNow();
    return (
      (await this.#db.run(
        `UPDATE jobs SET lease_until = ${leaseNow} + ?, call_until = ${leaseNow} + ?
         WHERE id = ? AND lease_token = ? AND done_at IS NULL AND failed_at IS NULL AND lease_until > ${leaseNow}`,
        [...leaseNowParams, leaseMs, ...leaseNowParams, callMs, job.id, job.leaseToken, ...leaseNowParams],
        'process-crash',
      )) === 1
    );
  }

  /**
   * The holder's send was answered (or failed): no call of it is on its way any more. Only a hint that spares a
   * takeover its wait, so a process crash is all it must survive: lost, a takeover waits longer (the safe side).
   */
  async callAnswered(job: Job): Promise<void> {
    await this.#db.run('UPDATE jobs SET call_until = NULL WHERE id = ? AND lease_token = ?', [job.id, job.leaseToken], 'process-crash');
  }

  /** How long (ms, lease clock) a send made under an earlier lease of the job may still be answered; 0 when none. */
  async callPendingMs(job: Job): Promise<number> {
    const [leaseNow, leaseNowParams] = this.#leaseNow();
    const row = await this.#db.get(`SELECT call_until - ${leaseNow} AS remaining FROM jobs WHERE id = ? AND call_until IS NOT NULL`, [...leaseNowParams, job.id]);
    return Math.max(0, Number(row?.remaining ?? 0));
  }

  /** Marks the job done; pass `tx` to do it in the transaction that records what the job did. */
  async complete(job: Job, now: number, tx: SqlExecutor = this.#db): Promise<boolean> {
    return (
      (await tx.run(`UPDATE jobs SET done_at = ?, lease_token = NULL, lease_until = NULL, call_until = NULL WHERE id = ? AND lease_token = ?`, [
        now,
        job.id,
        job.leaseToken,
      ])) === 1
    );
  }

  /** Gives up on the job for good. */
  async fail(job: Job, now: number, error: string): Promise<boolean> {
    return (
      (await this.#db.run(
        `UPDATE jobs SET failed_at = ?, last_error = ?, lease_token = NULL, lease_until = NULL, call_until = NULL WHERE id = ? AND lease_token = ?`,
        [now, error.slice(0, 2000), job.id, job.leaseToken],
      )) === 1
    );
  }

  /** Releases the job to run again at `runAt` (backoff after a transient failure, or a later check), with new payload if given. */
  async reschedule(job: Job, runAt: number, error: string | null, payload?: Record<string, unknown>): Promise<boolean> {
    return (
      (await this.#db.run(
        `UPDATE jobs SET run_at = ?, last_error = ?, payload = ?, lease_token = NULL, lease_until = NULL, call_until = NULL WHERE id = ? AND lease_token = ?`,
        [runAt, error?.slice(0, 2000) ?? null, JSON.stringify(payload ?? job.payload), job.id, job.leaseToken],
      )) === 1
    );
  }

  /** Cancels the open jobs of a subject (a deleted or paused post), optionally of one kind. */
  async cancelFor(subject: string, now: number, kind?: string, tx: SqlExecutor = this.#db): Promise<number> {
    return tx.run(
      `UPDATE jobs SET failed_at = ?, last_error = 'cancelled', lease_token = NULL, lease_until = NULL
       WHERE subject = ? AND done_at IS NULL AND failed_at IS NULL${kind ? ' AND kind = ?' : ''}`,
      kind ? [now, subject, kind] : [now, subject],
    );
  }

  /** Deletes jobs of `kinds` that finished (done or failed) before `before`; returns how many. */
  async prune(before: number, kinds: readonly string[]): Promise<number> {
    if (kinds.length === 0) return 0;
    return this.#db.run(`DELETE FROM jobs WHERE kind IN (${kinds.map(() => '?').join(', ')}) AND COALESCE(done_at, failed_at) < ?`, [...kinds, before]);
  }

  /** Open jobs (not done, not failed), for tests and diagnostics. */
  async countOpen(kind?: string): Promise<number> {
    const row = await this.#db.get(
      `SELECT COUNT(*) AS n FROM jobs WHERE done_at IS NULL AND failed_at IS NULL${kind ? ' AND kind = ?' : ''}`,
      kind ? [kind] : [],
    );
    return Number(row?.n ?? 0);
  }
}
