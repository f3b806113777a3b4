/**
 * The journey suite links accounts only the way a person does, on the hosted page: no file of the suite, nor any
 * test module it imports (followed through relative imports within test/), may name the linking shortcut of unit
 * tests. The service's own code (which implements the shortcut) is not the suite's. The check
 * runs on its own source too, so a test that can fail is shown failing on a planted line.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

// Spelled in two parts so this file does not name it itself.
const SHORTCUT = ['sandbox', 'accounts'].join('/');
const SUITE = dirname(fileURLToPath(import.meta.url));
const TESTS = resolve(SUITE, '../..');

/** Every file of the suite and every test module they import, transitively (`.js` specifiers name `.ts` files). */
function suiteFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const pending = readdirSync(SUITE).filter((name) => name.endsWith('.ts')).map((name) => join(SUITE, name));
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (files.has(file)) continue;
    const source = readFileSync(file, 'utf8');
    files.set(file, source);
    for (const [, specifier] of source.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+)'/g)) {
      const imported = resolve(dirname(file), specifier!.replace(/\.js$/, '.ts'));
      if (imported.startsWith(`${TESTS}/`)) pending.push(imported);
    }
  }
  return files;
}

/** The files (relative to the suite) whose text names the shortcut. */
export function filesNamingShortcut(files: Map<string, string>): string[] {
  return [...files].filter(([, source]) => source.includes(SHORTCUT)).map(([file]) => file.slice(TESTS.length + 1));
}

test('no file of the journey suite, nor a module it imports, links accounts with the shortcut', () => {
  const files = suiteFiles();
  // The suite and the test modules it brings in: the table, the steps, the stack and its fixtures.
  expect([...files.keys()].some((file) => file.endsWith('e2e/support/stack.ts'))).toBe(true);
  expect([...files.keys()].some((file) => file.endsWith('journey/journey-steps.ts'))).toBe(true);
  expect(filesNamingShortcut(files)).toEqual([]);
});

test('the check finds the shortcut when a file names it', () => {
  const planted = new Map([[join(SUITE, 'planted.spec.ts'), `await stack.api('POST', '/${SHORTCUT}', { platform: 'x' });`]]);
  expect(filesNamingShortcut(planted)).toEqual(['e2e/journey/planted.spec.ts']);
});
