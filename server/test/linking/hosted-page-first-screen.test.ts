/**
 * The hosted page's HTML carries its first screen (rendered by the server build of hosted/src/first-screen.ts) and
 * its stylesheet inline, allowed by the CSP through the stylesheet's hash: the networks for a usable token, the
 * "not embeddable" notice when a frame or the widget's popup asks for a page whose account has no max-pack, the "no longer valid"
 * notice (and its inline marker) for a dead token, and the plain "Loading…" when the browser asks for another
 * language (its texts load with the script). The token never appears in the HTML.
 *
 * Needs the built page (`npm run build:hosted`); without it the route answers 503 and the test says so.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { en } from '../../../src/i18n/hosted/en.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

const page = async (url: string, headers: Record<string, string> = {}) => {
  const response = await fetch(url, { headers });
  return { status: response.status, csp: response.headers.get('content-security-policy') ?? '', body: await response.text() };
};

describe('GET /link: the first screen in the HTML', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const createLink = async () => (await svc.client.createLinkSession({ origin: 'https://integrator.example', allowedSocial: ['bluesky', 'reddit'] })).url;

  it('renders the networks, inlines the stylesheet under its hash, and leaves the token out', async (t) => {
    const url = await createLink();
    const answer = await page(url, { 'Accept-Language': 'en-US,en;q=0.9' });
    if (answer.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
    assert.ok(!answer.body.includes(tokenOf(url)), 'the token is in the HTML');
    assert.match(answer.body, new RegExp(`<h1>${en.heading}</h1>`));
    assert.match(answer.body, /aria-label="Connect Bluesky"/);
    assert.match(answer.body, /aria-label="Connect Reddit"/);
    assert.doesNotMatch(answer.body, /<link rel="stylesheet"/);
    const css = /<style>([\s\S]*?)<\/style>/.exec(answer.body)?.[1];
    assert.ok(css, 'no inline stylesheet');
    const hash = createHash('sha256').update(css).digest('base64');
    assert.match(answer.csp, new RegExp(`style-src 'self' 'sha256-${hash.replace(/[+/]/g, '\\$&')}'(;|$)`));
    assert.doesNotMatch(answer.csp, /unsafe-inline/);
  });

  it('keeps "Loading…" for a browser that asks for another language', async (t) => {
    const answer = await page(await createLink(), { 'Accept-Language': 'fr-FR,fr;q=0.9,en;q=0.5' });
    if (answer.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
    assert.match(answer.body, new RegExp(`<h1 class="status">${en.loading}</h1>`));
    assert.ok(!answer.body.includes(`${en.heading}</h1>`), 'the English heading is in the HTML');
  });

  it('renders the "not embeddable" notice only for a frame or the widget\'s popup of an account without max-pack', async (t) => {
    await svc.sql('UPDATE accounts SET max_pack = 0 WHERE id = ?', [svc.account.id]);
    try {
      const url = await createLink();
      const framed = await page(url, { 'Sec-Fetch-Dest': 'iframe' });
      if (framed.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
      assert.match(framed.body, new RegExp(en.embedTitle));
      assert.doesNotMatch(framed.body, /aria-label="Connect Bluesky"/);
      const inWindow = await page(url, { 'Sec-Fetch-Dest': 'document' });
      assert.match(inWindow.body, /aria-label="Connect Bluesky"/);
      // The widget's popup (`?embed=popup`) needs max-pack as a frame does.
      const widgetPopup = await page(`${url}&embed=popup`, { 'Sec-Fetch-Dest': 'document' });
      assert.match(widgetPopup.body, new RegExp(en.embedTitle));
      assert.doesNotMatch(widgetPopup.body, /aria-label="Connect Bluesky"/);
    } finally {
      await svc.sql('UPDATE accounts SET max_pack = 1 WHERE id = ?', [svc.account.id]);
    }
  });

  it('renders the "no longer valid" notice, and its inline marker, for an unknown token', async (t) => {
    const answer = await page(`${svc.url}/link?session=${'B'.repeat(43)}`);
    if (answer.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
    assert.match(answer.body, new RegExp(en.invalidTitle));
    assert.match(answer.body, /<script type="application\/json" id="session-view">\{"status":"invalid"\}<\/script>/);
  });
});
