/**
 * @module
 * Serves the hosted linking page (hosted/dist, built by `npm run build:hosted`) at `{linking_url}` = `/link`.
 * The page request carries the token (`?session=`) on first load, or the session id (`?sid=`, not secret) after
 * the page removed the token from the address bar; either names the session whose `origin` alone may frame the
 * page (`frame-ancestors`, sent as a header: a meta tag is ignored). Anything else, app-scheme origins included,
 * gets `frame-ancestors 'none'`, and so does a session that is unknown, expired or revoked (those three are answered
 * identically). The same session's account logo (branding) is the one image `img-src` allows from outside.
 * On a first load with a usable token the HTML also carries the session view as inert JSON (`<script
 * type="application/json">`, not run, so the CSP is unchanged), so the page renders without asking for it; a
 * reload (`?sid=` only) gets the plain page, which asks the API with its stored token. A token that is unknown,
 * expired or revoked gets an inline "invalid" notice instead (the same for all three), so the page needs no API
 * call to say so. The first screen that applies (the networks, or the invalid, origin-mismatch or not-embeddable
 * notice) is rendered into `<main>` from the page's own Lit templates (hosted-page-build.ts), and the page's
 * stylesheet is inlined (allowed by its hash), so the page paints before its script has run. The HTML is
 * `no-store`; hashed assets may be cached.
 */
import { Hono, type Context } from 'hono';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { INVALID_LINK_NOTICE, type FirstScreenRequest, type InvalidLinkNotice } from '../../../../hosted/src/first-screen-contract.js';
import { INLINE_SESSION_VIEW_ID, parseSessionOrigin, type SessionView } from '@social-link-kit/protocol';
import { EMBED_MODE_PARAM, OPENER_ORIGIN_PARAM, type OriginMismatchNotice } from '@social-link-kit/protocol/constants.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import type { LinkSessionRecord } from '../../core/db/storage-types.js';
import { htmlPageHeaders } from '../../core/http/html.js';
import { clientAddress, enforceLimit } from '../../core/limits/enforce-limit.js';
import { hashSecret } from '../../core/tokens.js';
import { isSessionUsable } from '../service.js';
import { buildSessionView } from '../session-view.js';
import { createHostedPageBuildReader, type HostedPageBuild } from './hosted-page-build.js';
import { repoPath } from '../../paths.js';
import { describe, HTML, content } from '../../core/openapi/describe.js';

const HOSTED_DIST = repoPath('hosted/dist/');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** JSON whose text cannot end its script element or open a comment in it (`<`, `>`, `&` as \u escapes). */
export function jsonForScriptElement(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The first screen rendered into `<main>`, or the build's "Loading…" when none applies or rendering fails. */
function firstScreenHtml(build: HostedPageBuild, request: FirstScreenRequest | null): string {
  if (!request || !build.renderFirstScreen) return build.placeholder;
  try {
    return build.renderFirstScreen(request) ?? build.placeholder;
  } catch {
    // The page's script renders it instead.
    return build.placeholder;
  }
}

export function hostedPageRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'networks' | 'limiter'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const hostedBuild = createHostedPageBuildReader(HOSTED_DIST);
  // Read (and the renderer loaded, 150-200 ms) while the service starts, not on the first visitor's click; a
  // failure is read again, and answered, by the first request.
  hostedBuild().catch(() => {});

  const findSession = async (token: string | undefined, sessionId: string | undefined): Promise<LinkSessionRecord | null> =>
    token
      ? await deps.storage.linking.findLinkSessionByTokenHash(hashSecret(token))
      : sessionId
        ? await deps.storage.linking.findLinkSessionById(sessionId)
        : null;

  const frameAncestorsOf = (session: LinkSessionRecord | null): string => {
    const origin = session ? parseSessionOrigin(session.origin) : null;
    return origin?.kind === 'web' ? origin.origin : "'none'";
  };

  /**
   * The origin the widget says it runs on (`?from=`), when it is a web origin the session does not name. Such a
   * page gets only the mismatch notice (no view, no linking UI) and may be framed by that origin alone, so the
   * widget there hears a coded error at once instead of waiting on a frame the browser refused. A page that lies
   * about its origin gains nothing: frame-ancestors then names an origin it is not, and the browser refuses it.
   */
  const mismatchedOpener = (session: LinkSessionRecord, claimed: string | undefined): string | null => {
    const opener = parseSessionOrigin(claimed);
    if (opener?.kind !== 'web') return null;
    const own = parseSessionOrigin(session.origin);
    return own?.kind === 'web' && own.origin === opener.origin ? null : opener.origin;
  };

  /** The integrator's logo origin (the account's branding): the one image from outside the page. */
  const logoSourceOf = async (session: LinkSessionRecord | null): Promise<string> => {
    const logoUrl = session ? (await deps.storage.accounts.getBranding(session.accountId))?.logoUrl : undefined;
    return logoUrl ? ` ${new URL(logoUrl).origin}` : '';
  };

  const page = async (c: Context<AppEnv>) => {
    // Counted first, built or not: every page request spends the client's token-lookup budget. Over it, the page is
    // served unframeable without a lookup, and its API calls get the 429.
    const withinLimit = await enforceLimit(deps, 'tokenLookup', clientAddress(c, deps.config.limits.trustProxyHops), 'link session').then(
      () => true,
      () => false,
    );
    const build = await hostedBuild();
    if (build === null) return c.text('The hosted page is not built: run `npm run build:hosted`.', 503);
    let ancestors = "'none'";
    let logo = '';
    let view: SessionView | OriginMismatchNotice | InvalidLinkNotice | null = null;
    let screen: FirstScreenRequest | null = null;
    const fromRequest = {
      framed: c.req.header('sec-fetch-dest') === 'iframe',
      // The widget's popup needs max-pack as a frame does (../embed-mode.ts): its first screen may be the notice.
      widgetPopup: c.req.query(EMBED_MODE_PARAM) === 'popup',
      acceptLanguage: c.req.header('accept-language') ?? '',
    };
    try {
      const token = c.req.query('session');
      const found = withinLimit ? await findSession(token, c.req.query('sid')) : null;
      // Unknown, expired and revoked links get the same page, byte for byte and header for header: only a usable
      // session loosens frame-ancestors and img-src, so the answer tells a guesser nothing (security checklist 16, 33).
      const session = isSessionUsable(found, deps.clock()) ? found : null;
      const opener = session ? mismatchedOpener(session, c.req.query(OPENER_ORIGIN_PARAM)) : null;
      if (session && opener) {
        ancestors = opener;
        view = { status: 'origin_mismatch', sessionId: session.id, opener };
        screen = { screen: 'origin-mismatch', ...fromRequest };
      } else {
        ancestors = frameAncestorsOf(session);
        logo = await logoSourceOf(session);
        // Only the token's holder gets the view: a session id alone is not a credential.
        if (token && session) {
          const sessionView = await buildSessionView(deps, session);
          if (sessionView) {
            view = sessionView;
            screen = { screen: 'networks', view: sessionView, userAgent: c.req.header('user-agent') ?? '', ...fromRequest };
          }
        } else if (token && withinLimit) {
          // Unknown, expired or revoked alike (see above).
          view = INVALID_LINK_NOTICE;
          screen = { screen: 'invalid', ...fromRequest };
        }
      }
    } catch {
      // A failed lookup: serve the page unframeable, and let it ask the API.
    }
    const tail = view
      ? // A function, so `$&`-like text in a profile title is not read as a replacement pattern.
        build.tail.replace('</body>', () => `<script type="application/json" id="${INLINE_SESSION_VIEW_ID}">${jsonForScriptElement(view)}</script></body>`)
      : build.tail;
    const body = build.head + firstScreenHtml(build, screen) + tail;
    return c.html(
      body,
      200,
      htmlPageHeaders(
        {
          'script-src': "'self'",
          'style-src': `'self'${build.styleSource ? ` ${build.styleSource}` : ''}`,
          'img-src': `'self' data:${logo}`,
          'connect-src': "'self'",
          'form-action': "'self'",
          'frame-ancestors': ancestors,
        },
        // The page opens the OAuth popup and must keep its opener, and is itself opened by integrators' pages.
        { 'Cross-Origin-Opener-Policy': 'unsafe-none', 'X-Content-Type-Options': 'nosniff' },
      ),
    );
  };

  routes.get('/', describe({ summary: 'The hosted linking page ({linking_url})', tag: 'Browser', auth: 'none', origin: 'named', ours: 'served at {PUBLIC_URL}/link', response: HTML, errors: [510] }), page);
  // The assets' names carry their content's hash, so their bytes never change: each is read from disk once. Only
  // files of the build are kept (checked above), and a rebuild names its files anew.
  const assetBytes = new Map<string, Buffer<ArrayBuffer>>();
  routes.get('/assets/:file', describe({ summary: "The hosted page's assets", tag: 'Browser', auth: 'none', response: content('application/octet-stream', 'Script, stylesheet or image.') }), async (c) => {
    const name = c.req.param('file');
    const file = normalize(join(HOSTED_DIST, 'assets', name));
    if (!/^[\w.-]+$/.test(name) || !file.startsWith(HOSTED_DIST) || !existsSync(file)) return c.text('Not found', 404);
    let bytes = assetBytes.get(file);
    if (!bytes) {
      bytes = await readFile(file);
      assetBytes.set(file, bytes);
    }
    return c.body(bytes, 200, {
      'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream',
      'Cache-Control': 'public, max-age=31536000, immutable',
    });
  });
  return routes;
}
