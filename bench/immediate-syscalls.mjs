// The system calls of an immediate post (issue 31): on this kind of virtual machine a system call costs tens of
// µs, so their count per post is a large part of what the service adds to the network's own time. Starts the
// service, links a sandbox linkedin account, attaches `strace -f -c` to the service's process and sends BENCH_POSTS
// (100) immediate posts one at a time, then prints the calls per post (of every thread) by system call.
// SERVICE_ROOT=<dir> runs another copy of the repository, as in profile-service.mjs; BASELINE_ROOT=<dir> traces that
// copy too, after this one in the same run, and prints its counts beside. STRACE_FILES=1 traces the file and pipe
// calls one by one instead and prints them per post by thread (the event loop or another) and file.
// Run: node --import tsx bench/immediate-syscalls.mjs (needs strace)
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { stopChild } from '../server/test/support/stop-child.ts';
import { startLinkedinService } from './enterprise-linkedin.mjs';

const POSTS = Number(process.env.BENCH_POSTS ?? 100);
const BY_FILE = process.env.STRACE_FILES === '1';

/** Traces BENCH_POSTS posts to the service of `root` (else this checkout): calls by key, and the load. */
async function trace(root, keepAs) {
  const { service, dir, api, headers } = await startLinkedinService('slk-syscalls-', root);
  const traceFile = join(dir, 'strace.txt');
  try {
    const post = async () => {
      const answer = await (await fetch(`${api}/post`, { method: 'POST', headers, body: JSON.stringify({ post: `Syscalls ${randomBytes(16).toString('hex')}`, platforms: ['linkedin'] }) })).json();
      if (answer.status !== 'success') throw new Error(`post: ${JSON.stringify(answer)}`);
    };
    // Warm: the first posts open the sandbox's connection and prepare the statements.
    for (let i = 0; i < 10; i++) await post();
    const traced = BY_FILE ? ['-f', '-y', '-tt', '-e', 'trace=pwrite64,pread64,fcntl,fsync,fdatasync,write,writev,read,futex', '-o', traceFile] : ['-f', '-c', '-o', traceFile];
    const strace = spawn('strace', [...traced, '-p', String(service.process.pid)], { stdio: 'ignore' });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const load = loadavg()[0].toFixed(1);
    for (let i = 0; i < POSTS; i++) await post();
    await new Promise((resolve) => setTimeout(resolve, 500));
    strace.kill('SIGINT');
    await new Promise((resolve) => strace.once('exit', resolve));
    const lines = readFileSync(traceFile, 'utf8').trim().split('\n');
    if (process.env.STRACE_KEEP) writeFileSync(`${process.env.STRACE_KEEP}${keepAs}`, lines.join('\n'));
    return { load, counts: BY_FILE ? countByFile(lines, service.process.pid) : countBySyscall(lines) };
  } finally {
    await stopChild(service.process);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** strace -c's table: calls by system call, and the total. */
function countBySyscall(lines) {
  const counts = new Map();
  for (const line of lines) {
    const fields = line.trim().split(/\s+/);
    const calls = Number(fields[3]);
    if (Number.isFinite(calls) && fields.length >= 5) counts.set(fields.at(-1), calls);
  }
  return counts;
}

/** Calls by thread (the service's main thread is the event loop) and file (strace -y names it). */
function countByFile(lines, mainPid) {
  const counts = new Map();
  for (const line of lines) {
    // futex (a thread woken or waiting: the thread pool's hand-offs) names no file.
    const futex = /^(\d+)\s+(?:[\d:.]+\s+)?futex\(/.exec(line);
    const match = futex ? [line, futex[1], 'futex', '', ''] : /^(\d+)\s+(?:[\d:.]+\s+)?(\w+)\((\d+)<([^>]*)>/.exec(line);
    if (!match) continue;
    const thread = Number(match[1]) === mainPid ? 'loop' : 'other';
    const file = match[4].replace(/^.*\/slk-syscalls-[^/]*\//, '').replace(/^(pipe|socket):.*/, '$1');
    const key = `${thread} ${match[2]} ${file}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const runs = [{ name: process.env.SERVICE_ROOT ? 'SERVICE_ROOT' : 'this checkout', ...(await trace(process.env.SERVICE_ROOT, '')) }];
if (process.env.BASELINE_ROOT) runs.push({ name: 'baseline', ...(await trace(process.env.BASELINE_ROOT, '.baseline')) });
const keys = [...new Set(runs.flatMap((run) => [...run.counts.keys()]))].sort((a, b) => (runs[0].counts.get(b) ?? 0) - (runs[0].counts.get(a) ?? 0));
console.log(`${BY_FILE ? 'file and pipe calls by thread (loop = the event loop) and file' : 'system calls of every thread (strace -f -c)'}, per post over ${POSTS} immediate posts`);
console.log(runs.map((run) => `${run.name} (load ${run.load})`.padStart(24)).join('') + '  call');
for (const key of keys) console.log(runs.map((run) => ((run.counts.get(key) ?? 0) / POSTS).toFixed(1).padStart(24)).join('') + `  ${key}`);
