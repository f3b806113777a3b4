/**
 * @module
 * The built hosted page as the service serves it (hosted/dist, from `npm run build:hosted`): index.html with its
 * stylesheet inlined (the first paint waits for no CSS request; the CSP allows exactly that text by its hash),
 * split around the content of `<main id="app">`, and the page's first-screen renderer (the server build of
 * hosted/src/first-screen.ts), which fills that content. index.html is read again when a build replaced it; the
 * renderer is loaded once per process (a module stays in Node's cache), so after rebuilding the page's templates
 * restart the service, or the first screen comes from the old ones until the page script renders the new.
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FirstScreenModule } from '../../../../hosted/src/first-screen-contract.js';

/** The server build of hosted/src/first-screen.ts (hosted/vite.config.ts puts it there), from this module. */
const RENDERER_SPECIFIER = '../../../../hosted/dist/server/first-screen.js';
const RENDERER_PATH = fileURLToPath(new URL(RENDERER_SPECIFIER, import.meta.url));

export interface HostedPageBuild {
  /** index.html up to and including `<main id="app" …>`, the stylesheet inlined. */
  head: string;
  /** What `<main>` holds when nothing is rendered into it ("Loading…"). */
  placeholder: string;
  /** From `</main>` to the end. */
  tail: string;
  /** The CSP source that allows the inlined stylesheet (`'sha256-…'`), or '' when the build has none. */
  styleSource: string;
  renderFirstScreen: FirstScreenModule['renderFirstScreen'] | null;
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*? href="[^"]*\/assets\/([\w.-]+\.css)"[^>]*>/;
const MAIN_CONTENT = /(<main id="app"[^>]*>)([\s\S]*?)(<\/main>)/;

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
  // A literal address (RENDERER_SPECIFIER's), typed `string` so TypeScript does not look for the types of a file
  // that exists only after a build: the contract's FirstScreenModule types it.
  const renderer = existsSync(RENDERER_PATH) ? ((await import('../../../../hosted/dist/server/first-screen.js' as string)) as FirstScreenModule) : null;
  // The first render runs the renderer's code cold (10-30 ms): paid here, when the service starts, not by a visitor.
  renderer?.renderFirstScreen({ screen: 'invalid', framed: false, acceptLanguage: '' });
  return {
    head: html.slice(0, main.index) + main[1],
    placeholder: main[2]!,
    tail: main[3] + html.slice(main.index + main[0].length),
    styleSource,
    renderFirstScreen: renderer?.renderFirstScreen ?? null,
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
