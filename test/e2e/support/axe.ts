/** axe-core in a page (or frame), run outside the page's CSP: the violations as `impact id (nodes)` lines. */
import type { Frame, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export async function axeViolations(page: Page | Frame): Promise<string[]> {
  const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
  await page.evaluate(readFileSync(axePath, 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`);
  });
}
