/**
 * @module
 * WAL checkpoints off the event loop. SQLite copies the WAL back into the database file (a checkpoint: page
 * writes and two fsyncs) on the connection whose commit pushed the WAL past `wal_autocheckpoint` pages; with the
 * service's one connection that is the event-loop thread, and every request arriving meanwhile waits (the
 * create's p99 tail). A worker thread with its own connection runs PASSIVE checkpoints (when, see below), so
 * the copy and its fsyncs happen beside the requests. PASSIVE never waits for and never blocks readers or writers.
 *
 * The WAL restarts from its beginning only when a write begins after every frame was copied back; a commit made
 * during the worker's checkpoint prevents that, so under steady load the WAL could keep growing. The service's own
 * connection therefore keeps `wal_autocheckpoint` as the bound: when the WAL passes it, that connection checkpoints
 * as before (PASSIVE), but finds almost every frame already copied, so its turn costs little. Durability is unchanged: a
 * commit is durable once its WAL frames are synced (wal-sync.ts), whoever copies them back later; a checkpoint
 * syncs the WAL before it copies and the database file before the WAL may be reused (at NORMAL as at FULL).
 *
 * The worker copies only once the WAL holds `CHECKPOINT_MIN_FRAMES` frames, or has been still for
 * `CHECKPOINT_IDLE_MS` (issue 31). Each restart of the WAL rewrites its header and syncs it on the writing thread,
 * the event loop: copying whatever had arrived every 20 ms restarted it every few immediate posts (0.1-0.4 event-loop
 * fsyncs of 0.5-2 ms per post, strace). How many frames wait is read from the wal-index header in the `-shm` file
 * (its documented layout: `mxFrame` at byte 16, `nBackfill` at byte 96, in the machine's byte order); when it
 * cannot be read the worker copies every interval, as before.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker looks at the WAL (and copies when due): a turn of the fallback then finds little to copy. */
export const CHECKPOINT_INTERVAL_MS = 20;

/**
 * `wal_autocheckpoint` of the service's own connection while the worker runs: 4,000 pages (16 MB at 4 KB pages)
 * instead of SQLite's 1,000, so the event loop's own checkpoints, each copying only what arrived since the worker's
 * last one, come four times less often (measured with strace at 1,000 creates/s: that thread's page copies to the
 * database file fell from 1,242 to 133 and its checkpoint fsyncs from 13 to 4).
 */
export const FALLBACK_CHECKPOINT_PAGES = 4000;

/** The worker copies once the WAL holds this many frames (4 MB at 4 KB pages)... */
export const CHECKPOINT_MIN_FRAMES = 1000;
/** ...or once the WAL has not changed for this long (a quiet service's database file catches up). */
export const CHECKPOINT_IDLE_MS = 2000;

export interface CheckpointWorkerData {
  driverPath: string;
  filename: string;
  synchronous: 'FULL' | 'NORMAL';
  intervalMs: number;
  minFrames: number;
  idleMs: number;
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
// The WAL's frames and how many are not yet copied, from the wal-index header (null when it cannot be read).
const { closeSync, openSync, readSync } = require('node:fs');
const header = Buffer.alloc(100);
const littleEndian = require('node:os').endianness() === 'LE';
const readU32 = (offset) => (littleEndian ? header.readUInt32LE(offset) : header.readUInt32BE(offset));
let shm = -1;
const walFrames = () => {
  try {
    if (shm < 0) shm = openSync(workerData.filename + '-shm', 'r');
    if (readSync(shm, header, 0, 100, 0) < 100) return null;
    const frames = readU32(16);
    return { frames, waiting: frames - readU32(96) };
  } catch {
    return null;
  }
};
let lastWaiting = 0;
let stillSince = Date.now();
/**
 * Copies when enough frames wait, or the WAL is still; and, once the WAL is long, whatever arrived since the last
 * copy, so that it is all copied between two commits and the next one restarts the WAL (a copy racing commits
 * leaves a few frames behind, and the WAL would grow to the service connection's own threshold).
 */
const tick = () => {
  const wal = walFrames();
  if (wal !== null) {
    const now = Date.now();
    if (wal.waiting !== lastWaiting) {
      lastWaiting = wal.waiting;
      stillSince = now;
    }
    if (wal.waiting <= 0) return;
    if (wal.frames < workerData.minFrames && now - stillSince < workerData.idleMs) return;
  }
  checkpoint();
};
const timer = setInterval(tick, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  if (shm >= 0) closeSync(shm);
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
      minFrames: CHECKPOINT_MIN_FRAMES,
      idleMs: CHECKPOINT_IDLE_MS,
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
