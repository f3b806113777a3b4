/**
 * @module
 * The built hosted page as the service serves it (hosted/dist, from `npm run build:hosted`): index.html with its
 * stylesheet inlined (the first paint waits for no CSS request; the CSP allows exactly that text by its hash),
 * split around the content of `<main id="app">`, and the page's first-screen renderer (the server build of
 * hosted/src/first-screen.ts), which fills that content: warmed up on every screen when the build is read, and its
 * renders kept by look (first-screen-cache.ts), so no click pays a render. index.html is read again when a build replaced it; the
 * renderer is loaded once per process (a module stays in Node's cache), so after rebuilding the page's templates
 * restart the service, or the first screen comes from the old ones until the page script renders the new.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FirstScreenModule } from '../../../../hosted/src/first-screen-contract.js';
import { NETWORKS, connectMethodOf, type SessionView } from '@social-link-kit/protocol';
import { cachedFirstScreenRenderer } from './first-screen-cache.js';
import { repoPath } from '../../paths.js';

/** The server build of hosted/src/first-screen.ts (hosted/vite.config.ts puts it there). */
const RENDERER_PATH = repoPath('hosted/dist/server/first-screen.js');

export interface HostedPageBuild {
  /** index.html up to and including `<main id="app" …>`, the stylesheet inlined. */
  head: string;
  /** What `<main>` holds when nothing is rendered into it ("Loading…"). */
  placeholder: string;
  /** From `</main>` to the end. */
  tail: string;
  /** The CSP source that allows the inlined stylesheet (`'sha256-…'`), or '' when the build has none. */
  styleSource: string;
  /** The first screen's HTML for a request (renders kept by look: first-screen-cache.ts), or null: see the module. */
  renderFirstScreen: FirstScreenModule['renderFirstScreen'] | null;
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="[^"]*\/assets\/([\w.-]+\.css)"[^>]*>/;
const MAIN_CONTENT = /(<main id="app"[^>]*>)([\s\S]*?)(<\/main>)/;

/**
 * Renders every screen the service renders once, in a frame and in a window: the first render of each template
 * runs its code cold and prepares the template (5-15 ms each), paid here, when the service starts, not by the
 * first visitors' clicks. Not through the cache: these are no one's pages.
 */
function warmUp(renderer: FirstScreenModule): void {
  const now = new Date();
  const view: SessionView = {
    status: 'success',
    sessionId: 'warm-up',
    title: 'Warm-up',
    expiresAt: new Date(now.getTime() + 300_000).toISOString(),
    serverTime: now.toISOString(),
    origin: null,
    redirect: null,
    instagramLinkMethod: 'facebook',
    networks: NETWORKS.map((platform) => ({ platform, method: connectMethodOf(platform), linked: false, displayName: null, username: null, sandbox: true })),
    completedNetworks: [],
    embeddable: true,
    locale: null,
    branding: null,
  };
  for (const framed of [true, false]) {
    const fromRequest = { framed, acceptLanguage: 'en' };
    renderer.renderFirstScreen({ screen: 'invalid', ...fromRequest });
    renderer.renderFirstScreen({ screen: 'origin-mismatch', ...fromRequest });
    renderer.renderFirstScreen({ screen: 'networks', view, userAgent: '', ...fromRequest });
    renderer.renderFirstScreen({ screen: 'networks', view: { ...view, embeddable: false }, userAgent: '', ...fromRequest });
  }
}

async function readBuild(distDir: string): Promise<HostedPageBuild> {
  let html = await readFile(join(distDir, 'index.html'), 'utf8');
  let styleSource = '';
  const link = STYLESHEET_LINK.exec(html);
  if (link) {
    const css = await readFile(join(distDir, 'assets', link[1]!), 'utf8');
    styleSource = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    // A function, so `$&`-like text in the CSS is not read as a replacement pattern.
    html = html.replace(link[0], () => `<style>${css}</style>`);
  }
  const main = MAIN_CONTENT.exec(html);
  if (!main) throw new Error('hosted/dist/index.html has no <main id="app">.');
  // A literal address (RENDERER_PATH's), typed `string` so TypeScript does not look for the types of a file
  // that exists only after a build: the contract's FirstScreenModule types it. server/build.mjs keeps it external.
  const renderer = existsSync(RENDERER_PATH) ? ((await import('../../../../hosted/dist/server/first-screen.js' as string)) as FirstScreenModule) : null;
  if (renderer) warmUp(renderer);
  return {
    head: html.slice(0, main.index) + main[1],
    placeholder: main[2]!,
    tail: main[3] + html.slice(main.index + main[0].length),
    styleSource,
    renderFirstScreen: renderer ? cachedFirstScreenRenderer(renderer) : null,
  };
}

/** A reader of the build in `distDir`: null while it is not built. Starts reading at once (see hostedPageRoutes). */
export function createHostedPageBuildReader(distDir: string): () => Promise<HostedPageBuild | null> {
  const indexPath = join(distDir, 'index.html');
  let cached: { mtimeMs: number; build: Promise<HostedPageBuild> } | null = null;
  return async () => {
    if (!existsSync(indexPath)) return null;
    const { mtimeMs } = statSync(indexPath);
    if (cached?.mtimeMs !== mtimeMs) {
      const build = readBuild(distDir);
      cached = { mtimeMs, build };
      // A build caught half-written is read again by the next request.
      build.catch(() => {
        if (cached?.build === build) cached = null;
      });
    }
    return cached.build;
  };
}
