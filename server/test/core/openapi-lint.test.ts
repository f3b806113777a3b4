/**
 * The served OpenAPI documents pass a real OpenAPI linter, Redocly CLI's `lint` with its `recommended` rules
 * (offline: telemetry and update checks off): 0 errors in both, 0 warnings in the service's. The sandbox's keeps
 * one kind of warning: `no-ambiguous-paths`, as the networks' own APIs it stands in for have such paths
 * (`/sandbox/facebook/{version}/{page}/feed` beside `/sandbox/facebook/video-upload/{version}/{video}`). The service's
 * has one known pair, listed below: a post id is `post_…`, never `youtubeCategories`.
 * Root: `npm run lint:openapi`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

const REDOCLY = join(import.meta.dirname, '..', '..', '..', 'node_modules', '.bin', 'redocly');

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

async function lint(file: string): Promise<LintReport> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  // Exit code 1 when there are errors: the report on stdout is what the test reads either way.
  const run = await promisify(execFile)(REDOCLY, ['lint', file, '--format', 'json', '--extends', 'recommended'], { env, maxBuffer: 64 * 1024 * 1024 }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as LintReport;
}

const summary = (report: LintReport) => report.problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`);

describe('OpenAPI linter (Redocly CLI)', () => {
  let svc: TestService;
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN: 'admin-token-for-openapi-lint-0123' } });
    for (const [name, path] of [['service', '/api/openapi.json'], ['sandbox', '/api/sandbox/openapi.json']]) {
      writeFileSync(join(dir, `${name}.json`), await (await fetch(`${svc.url}${path}`)).text());
    }
  });
  after(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no error and no warning in the service document (but one known pair of look-alike paths)', async () => {
    const report = await lint(join(dir, 'service.json'));
    const KNOWN = 'Found two ambiguous paths: `/api/post/{id}/attempts` and `/api/post/youtubeCategories/{region}`.';
    assert.deepEqual(summary(report).filter((line) => !line.endsWith(KNOWN)), []);
  });

  it('finds no error in the sandbox document, and no warning but ambiguous paths', async () => {
    const report = await lint(join(dir, 'sandbox.json'));
    assert.equal(report.totals.errors, 0, summary(report).join('\n'));
    assert.deepEqual(summary(report).filter((line) => !line.includes('no-ambiguous-paths')), []);
  });

  it('is a linter that can fail: a broken document has errors', async () => {
    writeFileSync(join(dir, 'broken.json'), JSON.stringify({ openapi: '3.1.0', info: { title: 'x' }, paths: { '/a': { get: { responses: {} } } } }));
    const report = await lint(join(dir, 'broken.json'));
    assert.ok(report.totals.errors > 0, summary(report).join('\n'));
  });
});
