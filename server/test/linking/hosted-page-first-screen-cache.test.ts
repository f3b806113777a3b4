/**
 * The first screen's renders are kept by the renderer's key (first-screen-cache.ts): two requests with the same key
 * must render the same HTML, or a page would show another page's screen. Renders varied requests with the real
 * renderer (the server build of hosted/src/first-screen.ts) and compares every pair that shares a key; then checks
 * the cache itself with a counting renderer. Can fail: a template that starts showing something the key leaves out
 * (the session id, the exact expiry, the user agent) renders two same-key requests differently.
 *
 * Needs the built page (`npm run build:hosted`); without it the renderer tests are skipped and say so.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FirstScreenModule, FirstScreenRequest } from '../../../hosted/src/first-screen-contract.js';
import { NETWORKS, connectMethodOf, type SessionView } from '@social-link-kit/protocol';
import { cachedFirstScreenRenderer } from '../../src/linking/routes/first-screen-cache.js';

const RENDERER = fileURLToPath(new URL('../../../hosted/dist/server/first-screen.js', import.meta.url));
const loadRenderer = async (): Promise<FirstScreenModule | null> =>
  // A literal address (RENDERER's), typed `string`: the file exists only after a build.
  existsSync(RENDERER) ? ((await import('../../../hosted/dist/server/first-screen.js' as string)) as FirstScreenModule) : null;

const SERVER_TIME = Date.parse('2026-11-24T06:00:00.000Z');
const at = (ms: number) => new Date(SERVER_TIME + ms).toISOString();

function view(changes: Partial<SessionView> = {}): SessionView {
  return {
    status: 'success',
    sessionId: 'ls_first',
    title: 'Demo user',
    expiresAt: at(300_000),
    serverTime: at(0),
    origin: 'https://integrator.example',
    redirect: null,
    instagramLinkMethod: 'facebook',
    networks: NETWORKS.slice(0, 4).map((platform) => ({ platform, method: connectMethodOf(platform), linked: false, displayName: null, username: null, sandbox: true })),
    completedNetworks: [],
    embeddable: true,
    locale: null,
    branding: null,
    ...changes,
  };
}

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const networks = (request: Partial<SessionView>, from: Partial<{ framed: boolean; userAgent: string; acceptLanguage: string }> = {}): FirstScreenRequest => ({
  screen: 'networks',
  view: view(request),
  userAgent: from.userAgent ?? CHROME,
  framed: from.framed ?? true,
  acceptLanguage: from.acceptLanguage ?? 'en-US,en;q=0.9',
});

/** Every kind of difference a page can have, and ones it should not show. */
const REQUESTS: FirstScreenRequest[] = [
  networks({}),
  networks({ sessionId: 'ls_second' }),
  networks({ sessionId: 'ls_third', expiresAt: at(299_950), serverTime: at(0) }),
  networks({ expiresAt: at(600_000), serverTime: at(300_000) }),
  networks({ expiresAt: at(299_000) }),
  networks({ expiresAt: at(59_000) }),
  networks({ expiresAt: at(3_700_000) }),
  networks({ title: 'Someone else' }),
  networks({ title: '<b>&amp;</b>' }),
  networks({ redirect: 'https://integrator.example/back' }),
  networks({ redirect: 'https://integrator.example/back' }, { framed: false }),
  networks({}, { framed: false }),
  networks({}, { userAgent: `${CHROME} Instagram 300.0` }),
  networks({}, { userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }),
  networks({}, { acceptLanguage: 'en-GB' }),
  networks({}, { acceptLanguage: 'fr-FR,fr;q=0.9' }),
  networks({ locale: 'de' }),
  networks({ embeddable: false }),
  networks({ embeddable: false }, { framed: false }),
  networks({ branding: { name: 'Acme', logoUrl: 'https://cdn.example/logo.png', color: '#123456' } }),
  networks({ branding: { name: 'Acme' } }),
  networks({ networks: view().networks.map((n, i) => (i === 1 ? { ...n, linked: true, displayName: 'Ada', username: 'ada' } : n)) }),
  networks({ networks: view().networks.map((n, i) => (i === 1 ? { ...n, linked: true, displayName: 'Bob', username: 'bob' } : n)) }),
  networks({ networks: view().networks.map((n) => ({ ...n, sandbox: false })) }),
  networks({ networks: view().networks.slice(1) }),
  networks({ instagramLinkMethod: 'instagram' }),
  networks({ completedNetworks: [NETWORKS[0]!] }),
  { screen: 'invalid', framed: false, acceptLanguage: 'en' },
  { screen: 'invalid', framed: false, acceptLanguage: 'en-US,en;q=0.8' },
  { screen: 'invalid', framed: true, acceptLanguage: 'en' },
  { screen: 'invalid', framed: false, acceptLanguage: 'ja' },
  { screen: 'origin-mismatch', framed: true, acceptLanguage: 'en' },
  { screen: 'origin-mismatch', framed: false, acceptLanguage: 'en' },
];

describe('first screen renders kept by key', () => {
  it('renders the same HTML for every two requests of one key, and tells apart what shows', async (t) => {
    const renderer = await loadRenderer();
    if (!renderer) return t.skip('the hosted page is not built (npm run build:hosted)');
    const rendered = REQUESTS.map((request) => ({ key: renderer.firstScreenKey(request), html: renderer.renderFirstScreen(request) }));
    let sharedKeys = 0;
    for (const [i, a] of rendered.entries()) {
      for (const b of rendered.slice(i + 1)) {
        if (a.key !== b.key) continue;
        sharedKeys++;
        assert.equal(b.html, a.html, `same key, different HTML:\n${a.key}`);
      }
    }
    // The point of the key: another session, a second later, another browser or English variant, one render.
    assert.equal(rendered[1]!.key, rendered[0]!.key, 'another session id');
    assert.equal(rendered[2]!.key, rendered[0]!.key, 'the same countdown a little later');
    assert.equal(rendered[3]!.key, rendered[0]!.key, 'the same countdown at another server time');
    assert.ok(sharedKeys >= 8, `only ${sharedKeys} pairs share a key`);
    // And what shows is told apart.
    assert.notEqual(rendered[4]!.key, rendered[0]!.key, 'the countdown');
    assert.notEqual(rendered[7]!.key, rendered[0]!.key, 'the title');
    assert.notEqual(rendered[12]!.key, rendered[0]!.key, 'an in-app browser');
  });

  it('renders once per key, and lets the least recently used render go past its size', () => {
    const calls: string[] = [];
    const counting: FirstScreenModule = {
      firstScreenKey: (request) => (request.screen === 'networks' ? request.view.title : request.screen),
      renderFirstScreen: (request) => {
        const key = request.screen === 'networks' ? request.view.title : request.screen;
        calls.push(key);
        return `<h1>${key}</h1>`;
      },
    };
    const render = cachedFirstScreenRenderer(counting, 2);
    assert.equal(render(networks({ title: 'a' })), '<h1>a</h1>');
    assert.equal(render(networks({ title: 'a', sessionId: 'ls_other' })), '<h1>a</h1>');
    assert.deepEqual(calls, ['a']);
    render(networks({ title: 'b' }));
    render(networks({ title: 'a' }));
    render(networks({ title: 'c' }));
    // 'b' was the least recently used of the two kept: rendered again; 'a' and 'c' are still kept.
    render(networks({ title: 'b' }));
    render(networks({ title: 'c' }));
    assert.deepEqual(calls, ['a', 'b', 'c', 'b']);
  });
});
