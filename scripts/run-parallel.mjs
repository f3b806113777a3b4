#!/usr/bin/env node
/**
 * Runs npm scripts at the same time and fails if any fails: `node scripts/run-parallel.mjs test:server:pg test:proof:ci`.
 * A slow step that mostly waits (PostgreSQL's suite) and the proof step (child processes that mostly sleep between
 * kills) share CI's two cores better than one after the other. Each step's output goes to its own log file
 * (PARALLEL_LOG_DIR, default a temp directory), kept after the run, and is printed whole when the step ends, so two
 * logs never interleave; each step's time is printed (`# step <name>: <ms> ms, exit <code>`).
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const steps = process.argv.slice(2);
if (steps.length === 0) {
  console.error('usage: node scripts/run-parallel.mjs <npm script> [<npm script> …]');
  process.exit(2);
}
const logDir = process.env.PARALLEL_LOG_DIR || mkdtempSync(join(tmpdir(), 'slk-steps-'));
const began = Date.now();

function run(step) {
  const file = join(logDir, `${step.replace(/[^\w.-]+/g, '_')}.log`);
  const log = createWriteStream(file);
  const started = Date.now();
  // Its own process group, so a stop (Ctrl-C, CI's cancel) reaches every process the step started.
  const child = spawn('npm', ['run', step], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.pipe(log, { end: false });
  child.stderr.pipe(log, { end: false });
  return {
    child,
    done: new Promise((resolve) => {
      child.on('close', (code, signal) => {
        log.end(() => {
          const ms = Date.now() - started;
          process.stdout.write(`\n===== ${step} (log ${file}) =====\n${readFileSync(file, 'utf8')}`);
          console.log(`# step ${step}: ${ms} ms, exit ${code ?? signal}`);
          resolve({ step, ok: code === 0, ms, file });
        });
      });
    }),
  };
}

const running = steps.map(run);
const stopAll = () => {
  for (const { child } of running) if (child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
};
process.on('SIGINT', stopAll);
process.on('SIGTERM', stopAll);
const results = await Promise.all(running.map((r) => r.done));
const failed = results.filter((r) => !r.ok).map((r) => r.step);
console.log(`# parallel steps: ${results.map((r) => `${r.step} ${Math.round(r.ms / 1000)} s`).join(', ')}; wall ${Math.round((Date.now() - began) / 1000)} s; logs in ${logDir}`);
if (failed.length > 0) {
  // CI shows only the end of the output: repeat each failed test's TAP block there, so the cause is on record.
  for (const { step, file } of results.filter((r) => !r.ok)) console.error(`# ${step} failed:\n${failedTapBlocks(readFileSync(file, 'utf8'))}`);
  console.error(`# failed: ${failed.join(', ')}`);
  process.exit(1);
}

/** The `not ok` lines of a TAP log, each with its YAML block (error, location), at most 40 lines each. */
function failedTapBlocks(log) {
  const lines = log.split('\n');
  const blocks = [];
  lines.forEach((line, index) => {
    if (!/^\s*not ok \d+/.test(line)) return;
    const block = [line];
    for (const next of lines.slice(index + 1, index + 40)) {
      if (/^\s*(not ok|ok) \d+/.test(next) || /^\s*# Subtest/.test(next)) break;
      block.push(next);
    }
    blocks.push(block.join('\n'));
  });
  return blocks.length > 0 ? blocks.join('\n') : '(no `not ok` line in the log)';
}
