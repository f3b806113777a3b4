/**
 * @module
 * WAL checkpoints off the event loop. SQLite copies the WAL back into the database file (a checkpoint: page
 * writes and two fsyncs) on the connection whose commit pushed the WAL past `wal_autocheckpoint` pages; with the
 * service's one connection that is the event-loop thread, and every request arriving meanwhile waits (the
 * create's p99 tail). A worker thread with its own connection runs PASSIVE checkpoints every few milliseconds, so
 * the copy and its fsyncs happen beside the requests. PASSIVE never waits for and never blocks readers or writers.
 *
 * The WAL restarts from its beginning only when a write begins after every frame was copied back; a commit made
 * during the worker's checkpoint prevents that, so under steady load the WAL could keep growing. The service's own
 * connection therefore keeps `wal_autocheckpoint` as the bound: when the WAL passes it, that connection checkpoints
 * as before (PASSIVE), but finds almost every frame already copied, so its turn costs little. Durability is unchanged: a
 * commit is durable once its WAL frames are synced (wal-sync.ts), whoever copies them back later; a checkpoint
 * syncs the WAL before it copies and the database file before the WAL may be reused (at NORMAL as at FULL).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints: often enough that a turn of the fallback finds little left to copy. */
export const CHECKPOINT_INTERVAL_MS = 20;

/**
 * `wal_autocheckpoint` of the service's own connection while the worker runs: 4,000 pages (16 MB at 4 KB pages)
 * instead of SQLite's 1,000, so the event loop's own checkpoints, each copying only what arrived since the worker's
 * last one, come four times less often (measured with strace at 1,000 creates/s: that thread's page copies to the
 * database file fell from 1,242 to 133 and its checkpoint fsyncs from 13 to 4).
 */
export const FALLBACK_CHECKPOINT_PAGES = 4000;

export interface CheckpointWorkerData {
  driverPath: string;
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
  intervalMs: number;
}

/**
 * The worker's code, plain JavaScript run with `eval` so it needs no TypeScript loader (the service runs through
 * tsx; a worker would start without it). It reports a checkpoint's result when it differs from the last one
 * (tests read them).
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.filename);
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = ' + workerData.synchronous);
let reported = '';
const checkpoint = () => {
  try {
    const [result] = db.pragma('wal_checkpoint(PASSIVE)');
    // Only news wakes the service's thread: an idle database sends nothing.
    const state = result.log + '/' + result.checkpointed;
    if (state !== reported) parentPort.postMessage({ log: result.log, checkpointed: result.checkpointed });
    reported = state;
  } catch (error) {
    // A locked or missing file: the service's own connection still checkpoints at its threshold.
    parentPort.postMessage({ error: String(error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What the last checkpoint found: WAL frames, and how many of them are in the database file. */
export interface CheckpointResult {
  log: number;
  checkpointed: number;
}

export class WalCheckpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  readonly #listeners = new Set<(result: CheckpointResult) => void>();

  constructor(filename: string, synchronous: 'FULL' | 'NORMAL', intervalMs = CHECKPOINT_INTERVAL_MS) {
    const workerData: CheckpointWorkerData = {
      driverPath: createRequire(import.meta.url).resolve('better-sqlite3'),
      filename,
      synchronous,
      intervalMs,
    };
    // execArgv: [] so the worker does not load tsx again (it runs plain JavaScript).
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData, execArgv: [] });
    this.#worker.unref();
    this.#worker.on('message', (message: CheckpointResult | { error: string }) => {
      if ('log' in message) for (const listener of this.#listeners) listener(message);
    });
    // A worker that fails leaves the checkpoints to the service's own connection, as without it.
    this.#worker.on('error', () => {});
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
  }

  /** Calls `listener` after each of the worker's checkpoints that found the WAL changed; returns the function that stops it. */
  onCheckpoint(listener: (result: CheckpointResult) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Closes the worker's connection and waits for the thread to end. */
  async close(): Promise<void> {
    // Referenced again while closing, so the process waits for the thread to end.
    this.#worker.ref();
    this.#worker.postMessage('close');
    await this.#exited;
  }
}
