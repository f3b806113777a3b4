// Builds the hosted linking page into hosted/dist; the service serves it at /link (assets under /link/assets).
// After the page, the same sources are built once more for Node: the first-screen renderer the service loads
// (src/first-screen.ts → dist/server/first-screen.js, outside the served assets/), so the page's HTML carries its
// first screen rendered from the page's own templates.
import { build, defineConfig, type Plugin } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));
const base = '/link/';

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
        // Same asset rules as the page, so the network marks' sprite gets the same hashed address.
        build: { ssr: 'src/first-screen.ts', outDir: 'dist/server', emptyOutDir: false, target: 'node20', assetsInlineLimit: 0, copyPublicDir: false },
      });
    },
  };
}

export default defineConfig({
  root,
  base,
  // assetsInlineLimit 0: the network marks' sprite must stay a file, as <use href> cannot point into a data: URL.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
  plugins: [firstScreenRenderer()],
});
