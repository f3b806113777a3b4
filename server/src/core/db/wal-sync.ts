/**
 * @module
 * Durable SQLite commits off the event loop, grouped across transactions (issue 31). The connection commits at
 * `synchronous=NORMAL`: COMMIT appends the transaction's frames to the WAL (the page cache: a kill -9 of the
 * service keeps them) without an fsync, so neither the event loop nor the reads queued on the driver's mutex wait
 * for the disk. A caller whose write must survive a power loss then awaits `sync()`: one fdatasync of the WAL on
 * libuv's thread pool, shared by every caller that asked before it started; callers that ask while it runs (their
 * commit may have come after it began) share the next one. The WAL is written in order, so a sync also covers
 * every earlier commit, the unsynced ones (link-session creates) included.
 *
 * Checkpoints: SQLite at NORMAL still syncs the WAL before a checkpoint copies frames into the database file, and
 * the database file before it records them as copied; only then may a later writer restart the WAL from its
 * beginning and overwrite those frames. A commit whose frames were checkpointed and overwritten before its own
 * sync ran is therefore already in a synced database file; the sync then covers newer frames only, harmlessly.
 * A restarted WAL's header is synced by SQLite itself (at NORMAL too) before new frames follow it.
 *
 * A read may see a commit whose sync is still running (as PostgreSQL readers do under `synchronous_commit=off`);
 * what acts on such a row outside the process writes durably first, and that write's sync covers the row too.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Tests: told just before each fdatasync starts and just after it ended, before its callers are answered. */
export type SyncObserver = (phase: 'start' | 'end') => void;

interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class WalSync {
  readonly #walPath: string;
  #handle: FileHandle | null = null;
  /** Callers whose commit is done and who wait for a sync that starts after it. */
  #waiting: Waiter[] = [];
  #running = false;
  #syncs = 0;
  observer: SyncObserver | null = null;

  constructor(walPath: string) {
    this.#walPath = walPath;
  }

  /** fdatasyncs run so far (benchmarks and tests compare it with the commits). */
  get syncs(): number {
    return this.#syncs;
  }

  /** Resolves once an fdatasync of the WAL that started after this call has ended. */
  sync(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ resolve, reject });
      if (!this.#running) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#running = true;
    while (this.#waiting.length > 0) {
      const covered = this.#waiting;
      this.#waiting = [];
      try {
        await this.#datasync();
        for (const waiter of covered) waiter.resolve();
      } catch (error) {
        // Only these callers' writes are in doubt: a later sync covers later writes (its callers are told then).
        for (const waiter of covered) waiter.reject(error);
      }
    }
    this.#running = false;
  }

  async #datasync(): Promise<void> {
    this.#syncs += 1;
    this.observer?.('start');
    if (!this.#handle) {
      // Read-only is enough for fdatasync on the platforms the service runs on (Linux, macOS).
      const handle = await open(this.#walPath, 'r').catch((error: NodeJS.ErrnoException) => {
        // No WAL yet: nothing was ever committed to it, so nothing needs a sync.
        if (error.code === 'ENOENT') return null;
        throw error;
      });
      if (!handle) return this.observer?.('end');
      this.#handle = handle;
      // A WAL created by this process is reached through a directory entry that must be durable too.
      if (process.platform !== 'win32') {
        const directory = await open(dirname(this.#walPath), 'r');
        try {
          await directory.sync();
        } finally {
          await directory.close();
        }
      }
    }
    await this.#handle.datasync();
    this.observer?.('end');
  }

  /** Waits for the syncs asked for so far, then closes the WAL's handle (before the connection deletes the WAL). */
  async close(): Promise<void> {
    if (this.#running) await this.sync();
    await this.#handle?.close();
    this.#handle = null;
  }
}
