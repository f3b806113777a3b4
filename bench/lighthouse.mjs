// Lighthouse 12.8.2 (run with npx, not a package.json dependency: its lockfile is not stable) against one URL,
// headless system Chromium, desktop preset. Returns scores (0-100) and FCP/LCP in ms.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.config.mjs';

const FLAGS = ['--headless=new', ...CHROMIUM_ARGS].join(' ');

export function runLighthouse(url) {
  const dir = mkdtempSync(join(tmpdir(), 'slk-lh-'));
  const report = join(dir, 'report.json');
  try {
    execFileSync(
      'npx',
      ['-y', 'lighthouse@12.8.2', url, '--quiet', '--output=json', `--output-path=${report}`, '--only-categories=performance,accessibility', '--preset=desktop', `--chrome-flags=${FLAGS}`],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000 },
    );
    const json = JSON.parse(readFileSync(report, 'utf8'));
    return {
      performance: Math.round(json.categories.performance.score * 100),
      accessibility: Math.round(json.categories.accessibility.score * 100),
      fcpMs: Math.round(json.audits['first-contentful-paint'].numericValue),
      lcpMs: Math.round(json.audits['largest-contentful-paint'].numericValue),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
