#!/usr/bin/env node
/**
 * `npm test --workspace server`: bundles the server suites (bundle-server-tests.mjs) into a folder of this run's own
 * (so the SQLite and PostgreSQL runs can go on at once in one checkout), runs them with Node's test runner, one file
 * at a time, and removes the folder. Extra arguments go to `node --test` (e.g. `--test-reporter=tap`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
mkdirSync(join(root, '.tmp'), { recursive: true });
const out = mkdtempSync(join(root, '.tmp', 'server-tests-'));

const run = (args, cwd) =>
  new Promise((done) => {
    const child = spawn(process.execPath, args, { cwd, stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => child.kill(signal));
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });

let code = await run([join(root, 'scripts/bundle-server-tests.mjs'), '--out', out], root);
if (code === 0) {
  const bundled = join(out, 'server', 'test');
  const files = readdirSync(bundled, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) => readdirSync(join(bundled, dir.name)).filter((file) => file.endsWith('.test.mjs')).map((file) => join(bundled, dir.name, file)))
    .sort();
  code = await run(['--enable-source-maps', '--test', '--test-concurrency=1', ...process.argv.slice(2), ...files], join(root, 'server'));
}
rmSync(out, { recursive: true, force: true });
process.exit(code);
