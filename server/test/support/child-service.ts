/**
 * The service as its own process (`node --import tsx server/src/main.ts`, or `scripts/start.ts` with the demo), for
 * tests that kill and restart it, the end-to-end tests and the benchmarks. Stop it with stop-child.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

export interface ChildService {
  process: ChildProcess;
  /** The address it listens on, read from its start-up output. */
  url: string;
  /** Everything it printed so far (stdout and stderr), in order; it keeps growing. */
  logs: string[];
}

export interface ChildServiceOptions {
  /** The entry module, from the repository root; default the service alone. */
  script?: string;
  /** Ready when the output also matches this (e.g. the demo's start-up line); default the address alone. */
  ready?: RegExp;
  /** Extra node flags before the entry (e.g. `--cpu-prof`, which NODE_OPTIONS does not take). */
  nodeArgs?: string[];
  /** The entry is plain JavaScript (the built service, server/dist): run without the tsx loader, which doubles start-up. */
  plainNode?: boolean;
  /** How long the start may take (default 20 s; several processes starting at once on a busy machine take longer). */
  startTimeoutMs?: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export function startChildService(env: NodeJS.ProcessEnv, options: ChildServiceOptions = {}): Promise<ChildService> {
  return new Promise((resolve, reject) => {
    const loader = options.plainNode ? [] : ['--import', 'tsx'];
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script ?? 'server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const logs: string[] = [];
    // A start that never finishes is ended, so no process outlives the test that started it.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`service did not start:\n${output}`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      logs.push(chunk.toString('utf8'));
      // The first address with a real port, whatever the wording of the start-up line.
      const match = /\b(http:\/\/127\.0\.0\.1:[1-9]\d*)/.exec(output);
      if (match && (!options.ready || options.ready.test(output))) {
        clearTimeout(timer);
        resolve({ process: child, url: match[1]!, logs });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited early (${code}):\n${output}`));
    });
  });
}
