// Builds the hosted linking page into hosted/dist; the service serves it at /link (assets under /link/assets).
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/link/',
  // assetsInlineLimit 0: the network marks' sprite must stay a file, as <use href> cannot point into a data: URL.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false }, assetsInlineLimit: 0 },
});
