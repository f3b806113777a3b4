/**
 * @module
 * The demo integrator site: a backend that keeps the API key server-side and creates link sessions with
 * src/client, and a page (public/) that opens the link in every mode. It runs on its own origin
 * (http://localhost:8788 by default) so the hosted page (http://127.0.0.1:8787) is cross-origin, as it is
 * for a real integrator.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { LinkApiError, createLinkClient, type LinkClient } from '../src/client/index.js';
import { UNLINKABLE_NETWORKS, type CreateLinkSessionRequest, type UnlinkableNetwork } from '@social-link-kit/protocol';
import { networkLimitsPage } from './network-limits-page.js';
import { repoPath } from '../server/src/paths.js';

// The same from this source file and from the build that bundles it (server/dist/start.js, `npm start`).
const ROOT = repoPath('./');
const PUBLIC_DIR = join(ROOT, 'demo', 'public');
const WIDGET_BUNDLE = join(ROOT, 'dist', 'cdn', 'social-link.js');
/** The page's script (demo/app/): bundled on first request, since it imports the shared protocol and the chart library. */
const APP_ENTRY = join(ROOT, 'demo', 'app', 'main.js');
const CHART_CSS = join(ROOT, 'node_modules', 'uplot', 'dist', 'uPlot.min.css');
/** The simulated native app's return address: a reverse-DNS custom scheme (RFC 8252 §7.1). */
export const DEMO_APP_SCHEME_URL = 'com.socialkit.demo:/linked';
const MODES = ['frame', 'popup', 'direct', 'native'] as const;
/**
 * The sandbox's public X developer app (sandbox/src/networks/twitter-api.ts; the demo's typecheck does not
 * reach into the server): it only works on the sandbox. The demo e2e tests publish to twitter with it.
 */
const SANDBOX_TWITTER_APP = { apiKey: 'sandbox-twitter-api-key', apiSecret: 'sandbox-twitter-api-secret' } as const;
type Mode = (typeof MODES)[number];

export interface DemoOptions {
  /** The service base address, e.g. http://127.0.0.1:8787 (the API is under /api). */
  serviceUrl: string;
  apiKey: string;
  host?: string;
  port?: number;
  /** Where the demo keeps its user profile's key between runs. */
  dataDir: string;
  /**
   * The X developer app twitter-bound calls are signed with (spec 5.6). Defaults to the sandbox's public app, so
   * twitter works out of the box against the sandbox; with real X, your own app's keys.
   */
  twitterApp?: { apiKey: string; apiSecret: string };
}

export interface RunningDemo {
  url: string;
  close(): Promise<void>;
}

export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const twitterApp = options.twitterApp ?? SANDBOX_TWITTER_APP;
  const client = createLinkClient({ baseUrl: `${options.serviceUrl}/api`, apiKey: options.apiKey, twitterApp });
  const profileKey = await ensureDemoProfile(client, options.dataDir);
  await registerInbox(client, profileKey);
  const serviceHeaders = {
    Authorization: `Bearer ${options.apiKey}`,
    'Profile-Key': profileKey,
    'Content-Type': 'application/json',
    'X-Twitter-OAuth1-Api-Key': twitterApp.apiKey,
    'X-Twitter-OAuth1-Api-Secret': twitterApp.apiSecret,
  };
  const app = new Hono();
  let demoOrigin = '';

  // Set before the route answers, so Hono builds each answer with them; set after `next()`, Hono would copy every
  // finished answer into a new one (and stream its body) to add them: about a millisecond on each click's session.
  app.use('*', async (c, next) => {
    c.header('Referrer-Policy', 'no-referrer');
    c.header('Cache-Control', 'no-store');
    await next();
  });

  app.post('/api/session', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { mode?: string; allowedSocial?: string[] };
    const mode = (MODES as readonly string[]).includes(body.mode ?? '') ? (body.mode as Mode) : 'frame';
    const request: CreateLinkSessionRequest = { origin: mode === 'native' ? DEMO_APP_SCHEME_URL : demoOrigin };
    if (mode === 'direct') request.redirect = `${demoOrigin}/?returned=1`;
    if (mode === 'native') request.redirect = DEMO_APP_SCHEME_URL;
    const session = await client.createLinkSession(request, { profileKey });
    return c.json({ sessionId: session.sessionId, url: session.url, expiresAt: session.expiresAt });
  });

  app.get('/api/session/:id', async (c) => c.json(await client.getLinkSession(c.req.param('id'), { profileKey })));
  app.post('/api/session/:id/revoke', async (c) => c.json(await client.revokeLinkSession(c.req.param('id'), { profileKey })));
  app.get('/api/accounts', async (c) => c.json(await client.getUser({ profileKey })));
  app.post('/api/unlink', async (c) => {
    const { platform } = (await c.req.json().catch(() => ({}))) as { platform?: string };
    if (!(UNLINKABLE_NETWORKS as readonly string[]).includes(platform ?? '')) {
      return c.json({ status: 'error', message: 'Unknown platform' }, 400);
    }
    return c.json(await client.unlinkSocial(platform as UnlinkableNetwork, { profileKey }));
  });

  // The composer: posts for the demo profile through the typed client (the API key stays here).
  // The answer as the service gave it: a post that failed on some networks is an `error` envelope that still names
  // the post and the networks it reached, which the typed client's error would not carry.
  app.post('/api/posts', async (c) => {
    const response = await fetch(`${options.serviceUrl}/api/post`, { method: 'POST', headers: serviceHeaders, body: await c.req.text() });
    return c.json(await response.json(), response.ok ? 200 : 400);
  });
  // Live previews: the service's own checks, answered as they are (per-network `errors`, and a rendition when the
  // service sends one), so the composer shows exactly what the service would say. Nothing is stored or published.
  app.post('/api/validate', async (c) => {
    const body = await c.req.text();
    const response = await fetch(`${options.serviceUrl}/api/validate/post`, { method: 'POST', headers: serviceHeaders, body });
    return c.json(await response.json(), response.ok ? 200 : 400);
  });
  // The sandbox webhook inbox the demo registered at start: what it received, with the service's signature check.
  app.get('/api/webhook-inbox', async (c) => c.json(await client.readSandboxWebhookInbox({ profileKey })));
  app.get('/api/posts', async (c) => c.json(await client.getHistory({ lastDays: 0, limit: 50 }, { profileKey })));
  // A post's page: analytics now and over time, comments, and the activity of automations on its comments.
  app.get('/api/posts/:id/details', async (c) => {
    const id = c.req.param('id');
    const settle = <T>(promise: Promise<T>) => promise.then((value) => value, (error: unknown) => ({ status: 'error', message: error instanceof Error ? error.message : String(error) }));
    // Analytics first: the answer is stored, so the history read after it ends with it.
    const analytics = await settle(client.getPostAnalytics(id, undefined, { profileKey }));
    const [history, comments, automations] = await Promise.all([
      settle(client.getPostAnalyticsHistory(id, { profileKey })),
      settle(client.getComments(id, undefined, { profileKey })),
      settle(client.listAutomations({ profileKey })),
    ]);
    const activity = [];
    for (const automation of 'automations' in automations ? automations.automations : []) {
      const rows = await settle(client.getAutomationActivity(automation.id, { profileKey }));
      if ('activity' in rows) activity.push(...rows.activity.map((row) => ({ ...row, automation: automation.name })));
    }
    return c.json({ analytics, history, comments, activity });
  });
  app.post('/api/posts/:id/:action', async (c) => {
    const id = c.req.param('id');
    const action = c.req.param('action');
    if (action === 'approve') return c.json(await client.updatePost({ id, approved: true }, { profileKey }));
    if (action === 'pause' || action === 'unpause') return c.json(await client.updatePost({ id, scheduledPause: action === 'pause' }, { profileKey }));
    if (action === 'retry') return c.json(await client.retryPost(id, { profileKey }));
    if (action === 'delete') return c.json(await client.deletePost({ id }, { profileKey }));
    return c.json({ status: 'error', message: 'Unknown action' }, 400);
  });
  app.post('/api/sandbox-account', async (c) => {
    const { platform } = (await c.req.json().catch(() => ({}))) as { platform?: string };
    const response = await fetch(`${options.serviceUrl}/api/sandbox/accounts`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Profile-Key': profileKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ platform }),
    });
    return c.json(await response.json(), response.ok ? 200 : 400);
  });
  app.get('/api/feed-url', async (c) => {
    // The service hands out the feed's address: it holds a key, like the link URL (never built from the refId).
    const response = await fetch(`${options.serviceUrl}/api/sandbox/feed-url`, { headers: { Authorization: `Bearer ${options.apiKey}`, 'Profile-Key': profileKey } });
    const answer = (await response.json()) as { url?: string };
    return c.json({ url: answer.url ?? null }, response.ok ? 200 : 400);
  });

  app.get('/widget/social-link.js', async (c) => {
    if (!existsSync(WIDGET_BUNDLE)) return c.text('Widget bundle missing: run `npm run build`.', 404);
    return c.body(await readFile(WIDGET_BUNDLE), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  app.get('/app.js', async (c) => c.body(await bundleApp(), 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  app.get('/chart.css', async (c) => c.body(await readFile(CHART_CSS), 200, { 'Content-Type': 'text/css; charset=utf-8' }));
  app.get('/network-limits', (c) => c.html(networkLimitsPage()));
  // The sandbox app's keys are public (they only work on the sandbox), so the page may show them; a real app's never.
  const sandboxTwitterApp = twitterApp.apiKey === SANDBOX_TWITTER_APP.apiKey ? SANDBOX_TWITTER_APP : null;
  app.get('/config.json', (c) => c.json({ serviceOrigin: new URL(options.serviceUrl).origin, sandboxTwitterApp }));
  app.get('/*', async (c) => {
    const name = c.req.path === '/' ? 'index.html' : c.req.path.slice(1);
    if (!/^[a-z0-9-]+\.(html|js|css)$/.test(name)) return c.text('Not found', 404);
    const file = join(PUBLIC_DIR, name);
    if (!existsSync(file)) return c.text('Not found', 404);
    return c.body(await readFile(file), 200, { 'Content-Type': contentType(name) });
  });

  app.onError((error, c) => {
    if (error instanceof LinkApiError) {
      return c.json({ status: 'error', code: error.code, message: error.message, details: error.details }, error.status >= 400 ? (error.status as 400) : 502);
    }
    return c.json({ status: 'error', message: 'Demo backend error' }, 500);
  });

  const server = await new Promise<ServerType>((resolve) => {
    // Listen on IPv4 loopback; the page is addressed as `localhost` so it is another origin than the service.
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 8788 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  demoOrigin = `http://${options.host ?? 'localhost'}:${port}`;
  return {
    url: demoOrigin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let appBundle: Promise<string> | null = null;

/**
 * demo/app/ as one script (esbuild, loaded only when the page is asked for: the service's image never serves the
 * demo). The widget stays the script-tag build the page loads from /widget/, as an integrator would.
 */
function bundleApp(): Promise<string> {
  appBundle ??= import('esbuild').then(async ({ build }) => {
    const result = await build({
      entryPoints: [APP_ENTRY],
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      minify: true,
      external: ['/widget/*'],
      logLevel: 'silent',
    });
    return result.outputFiles[0]!.text;
  });
  return appBundle;
}

/**
 * Registers the sandbox webhook inbox for the post events, so the page can show each delivery as it arrives. Off
 * the sandbox the inbox does not exist: the demo runs on without it.
 */
async function registerInbox(client: LinkClient, profileKey: string): Promise<void> {
  try {
    const { url } = await client.sandboxWebhookInboxUrl({ profileKey });
    const secret = randomBytes(24).toString('base64url');
    for (const action of ['scheduled', 'social'] as const) await client.registerWebhook({ action, url, secret }, { profileKey });
  } catch {
    // No sandbox: no inbox.
  }
}

/** The demo links accounts to one user profile, created on the first run and remembered in the data dir. */
async function ensureDemoProfile(client: LinkClient, dataDir: string): Promise<string> {
  const file = join(dataDir, 'demo-profile.json');
  if (existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { profileKey: string };
    try {
      await client.getUser({ profileKey: saved.profileKey });
      return saved.profileKey;
    } catch {
      // The profile is gone (database reset): make a new one below.
    }
  }
  const profile = await client.createProfile('Demo user');
  writeFileSync(file, JSON.stringify({ refId: profile.refId, profileKey: profile.profileKey }), { mode: 0o600 });
  return profile.profileKey;
}

function contentType(name: string): string {
  if (name.endsWith('.html')) return 'text/html; charset=utf-8';
  if (name.endsWith('.css')) return 'text/css; charset=utf-8';
  return 'text/javascript; charset=utf-8';
}
