/**
 * The README's pinned script tag is the build's (scripts/widget-snippet.ts), and the service serves it: the address
 * answers 200 with bytes whose SRI hash is the README's, and the pinned build's language files answer beside it.
 * Needs the widget built (`npm run build:cdn`; `npm test` builds first).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { currentWidgetBuild, renderWidgetSnippet } from '../../../scripts/widget-snippet.js';
import { startTestService } from '../support/test-service.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');

describe("the README's pinned widget", () => {
  let svc: Awaited<ReturnType<typeof startTestService>>;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('is the current build (node --import tsx scripts/write-widget-snippet.ts after npm run build:cdn)', () => {
    assert.ok(README.includes(renderWidgetSnippet(currentWidgetBuild())), 'README.md widget snippet is stale');
  });

  it('is served, with the hash the README gives, and its language files beside it', async () => {
    const [, path, integrity] = /src="https:\/\/link\.example\.com(\/widget\/[^"]+\/social-link\.js)"\s+integrity="([^"]+)"/.exec(README)!;
    const response = await fetch(`${svc.url}${path}`);
    assert.equal(response.status, 200);
    const served = `sha384-${createHash('sha384').update(new Uint8Array(await response.arrayBuffer())).digest('base64')}`;
    assert.equal(served, integrity);
    for (const locale of ['de', 'pt-BR', 'ar']) {
      const chunk = await fetch(`${svc.url}${path!.replace('social-link.js', `${locale}.js`)}`);
      assert.equal(chunk.status, 200, locale);
      assert.equal(chunk.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    }
    const manifest = (await (await fetch(`${svc.url}/widget/manifest.json`)).json()) as { versions: Record<string, { integrity: string }> };
    assert.equal(manifest.versions[path!.split('/')[2]!]?.integrity, integrity);
  });
});
