// Builds the hosted linking page into hosted/dist; the service serves it at /link (assets under /link/assets).
// After the page, the same sources are built once more for Node: the first-screen renderer the service loads
// (src/first-screen.ts → dist/server/first-screen.js, outside the served assets/), so the page's HTML carries its
// first screen rendered from the page's own templates.
import { build, defineConfig, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minifyLitTemplatesPlugin } from '../scripts/minify-lit-templates.js';
import { NETWORK_MARK_ID_PREFIX } from './src/views/network-logo-ids.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const base = '/link/';

/**
 * The network marks (src/assets/networks.svg) go into the page's HTML, right after `<body>`, as hidden symbols the
 * rows' `<use href="#network-…">` point at: the first paint draws them, with no sprite request and no separate SVG
 * document to build once it arrives (5-10 ms of the frame's main thread in a trace of the click path). 3 KB, 0.6 KB
 * gzip. Ids get a prefix so they cannot meet the page's own ids.
 */
function inlineNetworkMarks(): Plugin {
  const sprite = readFileSync(new URL('./src/assets/networks.svg', import.meta.url), 'utf8')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\n\s*/g, '')
    .replace(/ id="/g, ` id="${NETWORK_MARK_ID_PREFIX}`)
    .replace(/^<svg /, '<svg class="network-marks" aria-hidden="true" focusable="false" width="0" height="0" ');
  return { name: 'slk-inline-network-marks', transformIndexHtml: (html) => html.replace('<body>', () => `<body>${sprite}`) };
}

/**
 * The page's entry (src/main.ts) imports the page itself (src/page.ts) only once the first screen has been painted;
 * a `<link rel="modulepreload">` for that file (and any chunk it imports) right after the entry's `<script>` starts
 * its fetch with the HTML's, so the import finds it loaded, but evaluates nothing before it is imported. Written
 * here because Vite preloads a dynamic import only from a helper inside the entry, at the time of the import.
 */
function preloadPageModule(): Plugin {
  return {
    name: 'slk-preload-page-module',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter((output) => output.type === 'chunk');
        const page = chunks.find((chunk) => chunk.facadeModuleId?.endsWith('/src/page.ts'));
        if (!page) throw new Error('hosted build: no chunk for src/page.ts');
        const entry = chunks.find((chunk) => chunk.isEntry);
        const files = [page.fileName, ...page.imports.filter((file) => file !== entry?.fileName)];
        const links = files.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`).join('');
        return html.replace(/(<script type="module"[^>]*><\/script>)/, (script) => script + links);
      },
    },
  };
}

function firstScreenRenderer(): Plugin {
  return {
    name: 'slk-first-screen-renderer',
    apply: (config) => !config.build?.ssr,
    async closeBundle() {
      await build({
        configFile: false,
        root,
        base,
        logLevel: 'warn',
        // The same templates as the page's, so the same markup.
        plugins: [minifyLitTemplatesPlugin()],
        build: { ssr: 'src/first-screen.ts', outDir: 'dist/server', emptyOutDir: false, target: 'node20', copyPublicDir: false },
      });
    },
  };
}

export default defineConfig({
  root,
  base,
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: false },
  // The templates' layout whitespace (source indentation) is string content the minifier keeps: it would go into
  // every first screen's HTML and the page script.
  plugins: [minifyLitTemplatesPlugin(), inlineNetworkMarks(), preloadPageModule(), firstScreenRenderer()],
});
