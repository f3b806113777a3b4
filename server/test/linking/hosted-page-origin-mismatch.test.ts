/**
 * `GET /link?…&from=<origin>`: the widget names the origin it runs on. When the session names another one, the page
 * carries only the mismatch notice (never the session view) and may be framed by the named origin alone; when it
 * names the session's origin, or the link is not usable, `from` changes nothing.
 *
 * Needs the built page (`npm run build:hosted`); without it the route answers 503 and the test says so.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { INLINE_SESSION_VIEW_ID } from '@social-link-kit/protocol';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';

const SESSION_ORIGIN = 'https://integrator.example';
const OTHER_ORIGIN = 'https://elsewhere.example';

const inlineJson = (html: string): Record<string, unknown> | null => {
  const match = new RegExp(`<script type="application/json" id="${INLINE_SESSION_VIEW_ID}">(.*?)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, unknown>) : null;
};

const frameAncestors = (response: Response) => /frame-ancestors ([^;]+)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

describe('GET /link from an origin the session does not name', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const page = (query: string) => fetch(`${svc.url}/link?${query}`);

  it('serves the notice, framable by the named origin only, without the session view', async (t) => {
    const session = await svc.client.createLinkSession({ origin: SESSION_ORIGIN });
    const response = await page(`session=${tokenOf(session.url)}&from=${encodeURIComponent(OTHER_ORIGIN)}`);
    if (response.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
    assert.equal(response.status, 200);
    assert.equal(frameAncestors(response), OTHER_ORIGIN);
    const html = await response.text();
    assert.deepEqual(inlineJson(html), { status: 'origin_mismatch', sessionId: session.sessionId, opener: OTHER_ORIGIN });
    assert.ok(!html.includes(svc.primaryProfile.title), 'the session view reached a page opened from another origin');
    // Control: without `from` the same link's page does carry the view (and so the title).
    const plain = await page(`session=${tokenOf(session.url)}`);
    assert.ok((await plain.text()).includes(svc.primaryProfile.title));
  });

  it('changes nothing when `from` is the session origin, or not a web origin', async (t) => {
    const session = await svc.client.createLinkSession({ origin: SESSION_ORIGIN });
    const token = tokenOf(session.url);
    for (const from of [SESSION_ORIGIN, 'javascript:alert(1)', 'https://elsewhere.example/path', '*']) {
      const response = await page(`session=${token}&from=${encodeURIComponent(from)}`);
      if (response.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
      assert.equal(frameAncestors(response), SESSION_ORIGIN, from);
      assert.equal(inlineJson(await response.text())?.status, 'success', from);
    }
  });

  it('treats a session with an app origin, or none, as a mismatch for a web page', async (t) => {
    for (const origin of ['com.example.app:/linked', undefined]) {
      const session = await svc.client.createLinkSession(origin ? { origin } : {});
      const response = await page(`session=${tokenOf(session.url)}&from=${encodeURIComponent(OTHER_ORIGIN)}`);
      if (response.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
      assert.equal(frameAncestors(response), OTHER_ORIGIN, String(origin));
      assert.equal(inlineJson(await response.text())?.status, 'origin_mismatch', String(origin));
    }
  });

  it('answers an unknown token with `from` exactly as one without it', async (t) => {
    const plain = await page(`session=${'B'.repeat(43)}`);
    if (plain.status === 503) return t.skip('the hosted page is not built (npm run build:hosted)');
    const withFrom = await page(`session=${'B'.repeat(43)}&from=${encodeURIComponent(OTHER_ORIGIN)}`);
    assert.equal(frameAncestors(withFrom), "'none'");
    assert.equal(withFrom.headers.get('content-security-policy'), plain.headers.get('content-security-policy'));
    assert.equal(await withFrom.text(), await plain.text());
  });
});
