// The pages a scheduled accept (`POST /api/post`, a post a week ahead) dirties on SQLite (issue 31): every page a
// commit changes is one frame appended to the WAL, so frames per accept is the write cost that other load hardly
// moves. Starts the service, links a sandbox linkedin account, attaches `strace -f -y -e pwrite64,fdatasync` to
// the service's process and sends BENCH_POSTS (300) scheduled posts over BENCH_CONNECTIONS (6) connections, then
// prints WAL frames (page-sized writes to the -wal file) per accept and per commit (a sync of the -wal file), and
// per accept by the table or index each page belongs to (the frame header names the page; dbstat its b-tree).
// SERVICE_ROOT=<dir> runs another copy of the repository (e.g. `git archive main`), for a before/after pair.
// Run: node --import tsx bench/accept-wal-pages.mjs (needs strace)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { stopChild } from '../server/test/support/stop-child.ts';
import { startLinkedinService } from './enterprise-linkedin.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 300);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 6);
/** Posts stored before the traced ones: enough that each index has many leaf pages, as a service's would. */
const STORED = Number(process.env.BENCH_STORED ?? 5_000);
const PAGE_SIZE = 4096;
const { service, dir, api, headers } = await startLinkedinService('slk-walpages-');
const traceFile = join(dir, 'strace.txt');
try {
  const scheduleDate = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const post = async () => {
    const body = JSON.stringify({ post: `Pages ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'], scheduleDate });
    const answer = await (await fetch(`${api}/post`, { method: 'POST', headers, body })).json();
    if (answer.status !== 'scheduled') throw new Error(`post: ${JSON.stringify(answer)}`);
  };
  const load = async (count) => {
    let left = count;
    await Promise.all(Array.from({ length: CONNECTIONS }, async () => {
      while (left-- > 0) await post();
    }));
  };
  // Warm, and enough rows that the indexes have several levels of pages.
  await load(STORED);
  const strace = spawn('strace', ['-f', '-y', '-xx', '-s', '4', '-e', 'trace=pwrite64,fdatasync,fsync', '-o', traceFile, '-p', String(service.process.pid)], { stdio: 'ignore' });
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  await load(POSTS);
  await new Promise((resolve) => setTimeout(resolve, 500));
  strace.kill('SIGINT');
  await new Promise((resolve) => strace.once('exit', resolve));
  let frames = 0;
  let syncs = 0;
  // (-xx writes file names in hex too: `\x2d\x77\x61\x6c` is `-wal`.)
  /** Frames by page number: a frame is its 24-byte header (the page number first, big-endian), then the page. */
  const byPage = new Map();
  let headerPage = null;
  for (const line of readFileSync(traceFile, 'utf8').split('\n')) {
    const write = /pwrite64\(\d+<[^>]*\\x2d\\x77\\x61\\x6c>, "((?:\\x[0-9a-f]{2})*)".*, (\d+), \d+\) = \d+/.exec(line);
    if (write && Number(write[2]) === 24) headerPage = Number.parseInt(write[1].replaceAll('\\x', ''), 16);
    if (write && Number(write[2]) === PAGE_SIZE) {
      frames++;
      byPage.set(headerPage, (byPage.get(headerPage) ?? 0) + 1);
    }
    if (/f(data)?sync\(\d+<[^>]*\\x2d\\x77\\x61\\x6c>\) = 0/.test(line)) syncs++;
  }
  await stopChild(service.process);
  const db = new Database(join(dir, 'social-link.db'), { readonly: true });
  const owner = new Map(db.prepare('SELECT pageno, name FROM dbstat').all().map((row) => [row.pageno, row.name]));
  db.close();
  const byTree = new Map();
  for (const [page, count] of byPage) byTree.set(owner.get(page) ?? '(free or new)', (byTree.get(owner.get(page) ?? '(free or new)') ?? 0) + count);
  console.log(`${POSTS} scheduled accepts over ${CONNECTIONS} connections (${STORED} stored before): ${frames} WAL frames, ${syncs} WAL syncs`);
  console.log(`frames per accept ${(frames / POSTS).toFixed(1)}, accepts per sync ${(POSTS / syncs).toFixed(1)}, frames per sync ${(frames / syncs).toFixed(1)}`);
  for (const [tree, count] of [...byTree].sort((a, b) => b[1] - a[1])) console.log(`${(count / POSTS).toFixed(2).padStart(7)}  ${tree}`);
} finally {
  await stopChild(service.process);
  rmSync(dir, { recursive: true, force: true });
}
