/**
 * @module
 * The sandbox consent page, in front of the embedded authorization server's /authorize. Clearly labelled:
 * nothing real is connected. Its buttons let a developer (or a test) allow, deny, make the network report an
 * error, or make the later code exchange fail.
 * - `GET  /sandbox/authorize`  the page (the sandbox networks' authorization endpoint)
 * - `POST /sandbox/authorize`  the choice → 302 to the authorization server, or straight back with an error
 */
import { Hono } from 'hono';
import { NETWORK_LABELS, isNetwork } from '../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../context.js';
import { escapeHtml, htmlPageHeaders } from '../core/http/html.js';
import { badRequest } from '../core/errors.js';
import { FAIL_TOKEN_SCOPE } from './sandbox-authorization-server.js';

const FORWARDED = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
const CHOICES = ['allow', 'deny', 'network_error', 'token_error'] as const;

export function sandboxConsentRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const issuer = () => deps.networks.sandboxIssuer;
  const headers = () => htmlPageHeaders({ 'style-src': "'self'", 'form-action': `'self' ${issuer() ?? ''}` });

  /** Only our own callbacks: the sandbox must not become an open redirect. */
  const checkedParams = (input: Record<string, string | undefined>) => {
    const params = Object.fromEntries(FORWARDED.map((name) => [name, input[name] ?? ''])) as Record<(typeof FORWARDED)[number], string>;
    const prefix = `${deps.config.publicUrl}/connect/callback/`;
    const platform = params.redirect_uri.startsWith(prefix) ? params.redirect_uri.slice(prefix.length) : '';
    if (!isNetwork(platform) || !params.state) throw badRequest('Sandbox: unknown redirect_uri or missing state.');
    return { params, platform };
  };

  routes.get('/sandbox.css', (c) =>
    c.body(
      `body{font-family:system-ui,sans-serif;background:#fff8e1;color:#1d2433;margin:0;padding:1.5rem}main{max-width:30rem;margin:auto}
.banner{background:#ffe08a;border:2px dashed #b58900;border-radius:.5rem;padding:.75rem;font-weight:600}
form{display:grid;gap:.6rem;margin-top:1rem}button{font:inherit;padding:.7rem;border-radius:.4rem;border:1px solid #3451b2;background:#3451b2;color:#fff}
button.alt{background:#fff;color:#3451b2}button:focus-visible{outline:3px solid #b58900;outline-offset:2px}`,
      200,
      { 'Content-Type': 'text/css; charset=utf-8' },
    ),
  );

  routes.get('/authorize', (c) => {
    const { params, platform } = checkedParams(c.req.query());
    const label = NETWORK_LABELS[platform];
    const hidden = FORWARDED.map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name])}">`).join('');
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox ${escapeHtml(label)}: allow access?</title><link rel="stylesheet" href="/sandbox/sandbox.css"></head>
<body><main><p class="banner" role="note">Sandbox network: no real ${escapeHtml(label)} account is connected.</p>
<h1>Allow access to your ${escapeHtml(label)} account?</h1>
<p>The app asks to publish on your behalf (scopes: ${escapeHtml(params.scope)}).</p>
<form method="post" action="/sandbox/authorize">${hidden}
<button type="submit" name="choice" value="allow">Allow</button>
<button type="submit" name="choice" value="deny" class="alt">Deny</button>
<button type="submit" name="choice" value="network_error" class="alt">Simulate a network error</button>
<button type="submit" name="choice" value="token_error" class="alt">Simulate a refused code exchange</button>
</form></main></body></html>`,
      200,
      headers(),
    );
  });

  routes.post('/authorize', async (c) => {
    // A malformed form (e.g. multipart without a boundary) is the caller's error: 400, not 500.
    const body = await c.req.parseBody().catch(() => {
      throw badRequest('Sandbox: the consent form could not be read.');
    });
    const form = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]));
    const { params } = checkedParams(form);
    const choice = (CHOICES as readonly string[]).includes(form.choice ?? '') ? form.choice : 'deny';
    const back = new URL(params.redirect_uri);
    back.searchParams.set('state', params.state);
    if (choice === 'deny' || choice === 'network_error' || !issuer()) {
      back.searchParams.set('error', choice === 'network_error' ? 'server_error' : 'access_denied');
      if (choice === 'network_error') back.searchParams.set('error_description', 'Sandbox network error');
      return c.redirect(back.href, 302);
    }
    const authorize = new URL(`${issuer()}/authorize`);
    for (const name of FORWARDED) if (params[name]) authorize.searchParams.set(name, params[name]);
    if (choice === 'token_error') authorize.searchParams.set('scope', `${params.scope} ${FAIL_TOKEN_SCOPE}`);
    return c.redirect(authorize.href, 302);
  });

  return routes;
}
