/**
 * docs/client.md is checked against the client itself: every method of `createLinkClient()` has a row, every row
 * names a method, and each row's call (`METHOD /api/path`) is the request that method really sends (recorded by a
 * fetch stand-in; nothing leaves the process).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLinkClient } from '../../../src/client/index.js';

const DOC = readFileSync(join(import.meta.dirname, '..', '..', '..', 'docs', 'client.md'), 'utf8');

/** `name` → `METHOD /api/path` from the doc's table rows. */
function documentedCalls(): Map<string, string> {
  const calls = new Map<string, string>();
  for (const [, name, call] of DOC.matchAll(/^\| `([A-Za-z]+)\([^`]*\)` \| `([A-Z]+ \/[^`]+)` \|/gm)) calls.set(name!, call!);
  return calls;
}

describe('docs/client.md', () => {
  const methods = Object.keys(createLinkClient({ baseUrl: 'http://service.invalid/api', apiKey: 'k' })).sort();
  const documented = documentedCalls();

  it('has a row for every client method, and no row for a method that does not exist', () => {
    assert.ok(methods.includes('createProfile'));
    assert.deepEqual(methods.filter((name) => !documented.has(name)), []);
    assert.deepEqual([...documented.keys()].filter((name) => !methods.includes(name)), []);
  });

  it('names the call each method really makes', async () => {
    const wrong: string[] = [];
    for (const name of methods) {
      let seen = '';
      const client = createLinkClient({
        baseUrl: 'http://service.invalid/api',
        apiKey: 'k',
        fetch: async (input, init) => {
          seen = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname.replace(/\/x(?=\/|$)/g, '/{param}')}`;
          throw new Error('recorded');
        },
      });
      const method = client[name as keyof typeof client] as (...args: unknown[]) => Promise<unknown>;
      await method('x', {}).catch(() => undefined);
      const row = documented.get(name)?.replace(/\{[A-Za-z]+\}/g, '{param}');
      if (seen !== row) wrong.push(`${name}: sends ${seen}, the doc says ${row}`);
    }
    assert.deepEqual(wrong, []);
  });
});
