/**
 * @module
 * The sandbox networks' consent screen, the authorization endpoint of the sandbox OAuth server
 * (sandbox/networks/oauth-server.ts answers the code exchange). Clearly labelled: nothing real is connected.
 * - `GET  /sandbox/authorize`  the screen: sign in as a new sandbox user (a handle of the person's choosing, a fresh
 *   one suggested; instagram: the account type; threads: whether the account may restrict posts by country), or
 *   continue as the user this browser signed in as before on that network (as a network remembers its login), and
 *   allow, deny, make the network report an error, or make the later code exchange fail.
 * - `POST /sandbox/authorize`  the choice → 302 back to our callback with a single-use code bound to the client,
 *   the redirect URI and the PKCE challenge, or with an error.
 */
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { NETWORK_LABELS, isNetwork, type Network } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { escapeHtml, htmlPageHeaders } from '../core/http/html.js';
import { badRequest } from '../core/errors.js';
import { hashSecret, newSecret } from '../core/tokens.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './networks/sandbox-tokens.js';
import { sandboxClientOf } from '../networks/registry.js';
import { INSTAGRAM_ACCOUNT_TYPES, createSandboxUser, isSandboxHandle, newSandboxHandle } from './networks/sandbox-users.js';
import type { SandboxUser } from './networks/store.js';

const FORWARDED = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;
const CHOICES = ['allow', 'remembered', 'deny', 'network_error', 'token_error'] as const;
type Params = Record<(typeof FORWARDED)[number], string>;
const CODE_TTL_MS = 10 * 60_000;
/** How long this browser stays signed in to a sandbox network. */
const LOGIN_TTL_MS = 30 * 24 * 60 * 60_000;

export function sandboxConsentRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const headers = () => htmlPageHeaders({ 'style-src': "'self'", 'form-action': "'self'" });
  const loginCookie = (platform: Network) => `sbx_login_${platform}`;

  /** Only our own callbacks and clients: the sandbox must not become an open redirect. */
  const checkedParams = (input: Record<string, string | undefined>): { params: Params; platform: Network } => {
    const params = Object.fromEntries(FORWARDED.map((name) => [name, input[name] ?? ''])) as Params;
    const prefix = `${deps.config.publicUrl}/connect/callback/`;
    const platform = params.redirect_uri.startsWith(prefix) ? params.redirect_uri.slice(prefix.length) : '';
    if (!isNetwork(platform) || !params.state) throw badRequest('Sandbox: unknown redirect_uri or missing state.');
    // TikTok names the client `client_key`.
    const clientId = params.client_id || (input.client_key ?? '');
    if (clientId !== sandboxClientOf(platform).clientId) throw badRequest('Sandbox: unknown client_id for this network.');
    params.client_id = clientId;
    if (params.code_challenge && params.code_challenge_method !== 'S256') throw badRequest('Sandbox: only S256 PKCE challenges are accepted.');
    return { params, platform };
  };

  /** The user this browser signed in as on `platform` before, if that login is still good. */
  async function rememberedUser(c: Context<AppEnv>, platform: Network): Promise<SandboxUser | null> {
    const check = await checkSandboxToken(store(), getCookie(c, loginCookie(platform)) ?? null, platform, 'login', deps.clock());
    return check.ok ? store().findUser(platform, { accountId: check.accountId }) : null;
  }

  routes.get('/sandbox.css', (c) =>
    c.body(
      `body{font-family:system-ui,sans-serif;background:#fff8e1;color:#1d2433;margin:0;padding:1.5rem}main{max-width:30rem;margin:auto}
.banner{background:#ffe08a;border:2px dashed #b58900;border-radius:.5rem;padding:.75rem;font-weight:600}
form{display:grid;gap:.6rem;margin-top:1rem}button{font:inherit;padding:.7rem;border-radius:.4rem;border:1px solid #3451b2;background:#3451b2;color:#fff}
button.alt{background:#fff;color:#3451b2}button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #b58900;outline-offset:2px}
label{display:grid;gap:.25rem;font-weight:600}input,select{font:inherit;padding:.5rem;border:1px solid #6b7280;border-radius:.4rem}
.error{color:#9b1c1c;font-weight:600}.hint{font-size:.9rem;margin:0}`,
      200,
      { 'Content-Type': 'text/css; charset=utf-8' },
    ),
  );

  function page(params: Params, platform: Network, remembered: SandboxUser | null, problem: string | null, handle: string): string {
    const label = escapeHtml(NETWORK_LABELS[platform]);
    const hidden = FORWARDED.map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(params[name])}">`).join('');
    const choice = (name: string, options: readonly string[]) =>
      `<select id="${name}" name="${name}">${options.map((option) => `<option>${escapeHtml(option)}</option>`).join('')}</select>`;
    const extra =
      platform === 'instagram'
        ? `<label for="accountType">Account type ${choice('accountType', INSTAGRAM_ACCOUNT_TYPES)}</label>`
        : platform === 'threads'
          ? `<label for="geoEligible">May restrict posts by country ${choice('geoEligible', ['yes', 'no'])}</label>`
          : '';
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox ${label}: allow access?</title><link rel="stylesheet" href="/sandbox/sandbox.css"></head>
<body><main><p class="banner" role="note">Sandbox network: no real ${label} account is connected.</p>
<h1>Allow access to your ${label} account?</h1>
<p>The app asks to publish on your behalf (scopes: ${escapeHtml(params.scope)}).</p>
${problem ? `<p class="error" role="alert">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/sandbox/authorize">${hidden}
${remembered ? `<button type="submit" name="choice" value="remembered">Continue as ${escapeHtml(remembered.handle)}</button><p class="hint">Or sign in as a new sandbox user:</p>` : ''}
<label for="handle">Sandbox username <input id="handle" name="handle" value="${escapeHtml(handle)}" autocomplete="off" spellcheck="false" pattern="[a-z0-9][a-z0-9_.\\-]{2,252}" required></label>
<p class="hint">Each username is its own sandbox user, with its own posts.</p>
${extra}
<button type="submit" name="choice" value="allow">Allow</button>
<button type="submit" name="choice" value="deny" class="alt" formnovalidate>Deny</button>
<button type="submit" name="choice" value="network_error" class="alt" formnovalidate>Simulate a network error</button>
<button type="submit" name="choice" value="token_error" class="alt">Simulate a refused code exchange</button>
</form></main></body></html>`;
  }

  routes.get('/authorize', async (c) => {
    const { params, platform } = checkedParams(c.req.query());
    return c.html(page(params, platform, await rememberedUser(c, platform), null, newSandboxHandle(platform)), 200, headers());
  });

  routes.post('/authorize', async (c) => {
    // A malformed form (e.g. multipart without a boundary) is the caller's error: 400, not 500.
    const body = await c.req.parseBody().catch(() => {
      throw badRequest('Sandbox: the consent form could not be read.');
    });
    const form = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : undefined]));
    const { params, platform } = checkedParams(form);
    const choice = (CHOICES as readonly string[]).includes(form.choice ?? '') ? form.choice : 'deny';
    const back = new URL(params.redirect_uri);
    back.searchParams.set('state', params.state);
    if (choice === 'deny' || choice === 'network_error') {
      back.searchParams.set('error', choice === 'network_error' ? 'server_error' : 'access_denied');
      if (choice === 'network_error') back.searchParams.set('error_description', 'Sandbox network error');
      return c.redirect(back.href, 302);
    }
    const now = deps.clock();
    let user = choice === 'remembered' ? await rememberedUser(c, platform) : null;
    if (!user) {
      // No username sent (a script's form): the suggested fresh one, as if the person kept it.
      const handle = (form.handle ?? '').trim().toLowerCase() || newSandboxHandle(platform);
      const again = (problem: string) => c.html(page(params, platform, null, problem, isSandboxHandle(handle) ? handle : newSandboxHandle(platform)), 400, headers());
      if (!isSandboxHandle(handle)) return again('The username must be 3-253 lower case letters, digits, “_”, “.” or “-”.');
      const accountType = INSTAGRAM_ACCOUNT_TYPES.find((type) => type === form.accountType) ?? 'BUSINESS';
      const details = platform === 'instagram' ? { accountType } : platform === 'threads' ? { geoEligible: form.geoEligible !== 'no' } : {};
      user = await createSandboxUser(store(), platform, { handle, details }, now);
      if (!user) return again(`The username ${handle} is taken on the sandbox ${NETWORK_LABELS[platform]}: choose another.`);
    }
    // This browser now stays signed in as that user, as on a network.
    const login = await issueSandboxToken(store(), { platform, accountId: user.accountId, handle: user.handle, kind: 'login', ttlMs: LOGIN_TTL_MS }, now);
    setCookie(c, loginCookie(platform), login, { path: '/sandbox/', httpOnly: true, sameSite: 'Lax', maxAge: LOGIN_TTL_MS / 1000 });
    const code = newSecret();
    await store().putCode(hashSecret(code), {
      platform,
      accountId: user.accountId,
      clientId: params.client_id,
      redirectUri: params.redirect_uri,
      codeChallenge: params.code_challenge || null,
      scope: params.scope,
      refuseExchange: choice === 'token_error',
      expiresAt: now + CODE_TTL_MS,
    });
    back.searchParams.set('code', code);
    return c.redirect(back.href, 302);
  });

  return routes;
}
