/**
 * @module
 * Serves the hosted linking page (hosted/dist, built by `npm run build:hosted`) at `{linking_url}` = `/link`.
 * The page request carries the token (`?session=`) on first load, or the session id (`?sid=`, not secret) after
 * the page removed the token from the address bar; either names the session whose `origin` alone may frame the
 * page (`frame-ancestors`, sent as a header: a meta tag is ignored). Anything else, app-scheme origins included,
 * gets `frame-ancestors 'none'`. The same session's account logo (branding) is the one image `img-src` allows from
 * outside. The HTML is `no-store`; hashed assets may be cached.
 */
import { Hono, type Context } from 'hono';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSessionOrigin } from '../../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { htmlPageHeaders } from '../../core/http/html.js';
import { clientAddress, enforceLimit } from '../../core/limits/enforce-limit.js';
import { hashSecret } from '../../core/tokens.js';

const HOSTED_DIST = fileURLToPath(new URL('../../../../hosted/dist/', import.meta.url));
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export function hostedPageRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  /** Who may frame the page (the session's web origin), and the integrator's logo origin, the one outside image. */
  const pageSources = async (token: string | undefined, sessionId: string | undefined): Promise<{ ancestors: string; logo: string }> => {
    const session = token
      ? await deps.storage.linking.findLinkSessionByTokenHash(hashSecret(token))
      : sessionId
        ? await deps.storage.linking.findLinkSessionById(sessionId)
        : null;
    const origin = session ? parseSessionOrigin(session.origin) : null;
    const logoUrl = session ? (await deps.storage.accounts.getBranding(session.accountId))?.logoUrl : undefined;
    return { ancestors: origin?.kind === 'web' ? origin.origin : "'none'", logo: logoUrl ? ` ${new URL(logoUrl).origin}` : '' };
  };

  const page = async (c: Context<AppEnv>) => {
    // Counted first, built or not: every page request spends the client's token-lookup budget. Over it, the page is
    // served unframeable without a lookup, and its API calls get the 429.
    const withinLimit = await enforceLimit(deps, 'tokenLookup', clientAddress(c, deps.config.limits.trustProxyHops), 'link session').then(
      () => true,
      () => false,
    );
    const file = join(HOSTED_DIST, 'index.html');
    if (!existsSync(file)) return c.text('The hosted page is not built: run `npm run build:hosted`.', 503);
    let sources = { ancestors: "'none'", logo: '' };
    try {
      if (withinLimit) sources = await pageSources(c.req.query('session'), c.req.query('sid'));
    } catch {
      // A failed lookup: serve the page unframeable.
    }
    return c.html(
      await readFile(file, 'utf8'),
      200,
      htmlPageHeaders(
        {
          'script-src': "'self'",
          'style-src': "'self'",
          'img-src': `'self' data:${sources.logo}`,
          'connect-src': "'self'",
          'form-action': "'self'",
          'frame-ancestors': sources.ancestors,
        },
        // The page opens the OAuth popup and must keep its opener, and is itself opened by integrators' pages.
        { 'Cross-Origin-Opener-Policy': 'unsafe-none', 'X-Content-Type-Options': 'nosniff' },
      ),
    );
  };

  routes.get('/', page);
  routes.get('/assets/:file', async (c) => {
    const name = c.req.param('file');
    const file = normalize(join(HOSTED_DIST, 'assets', name));
    if (!/^[\w.-]+$/.test(name) || !file.startsWith(HOSTED_DIST) || !existsSync(file)) return c.text('Not found', 404);
    return c.body(await readFile(file), 200, {
      'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
  });
  return routes;
}
