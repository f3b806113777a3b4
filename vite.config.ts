/**
 * Two library builds of the package (the hosted page has its own Vite config):
 * - default (`vite build`): the npm package, ESM, one file per entry, lit and zod left as imports → dist/lib
 * - `vite build --mode cdn`: one minified file with everything inside, for `<script type="module">` → dist/cdn
 * The widget elements declare `static properties` (no decorators: their helpers would cost the script-tag build);
 * the hosted page's decorators are lowered by Rolldown because tsconfig sets `experimentalDecorators`.
 */
import { defineConfig } from 'vite';
import { minifyLitTemplatesPlugin } from './scripts/minify-lit-templates.js';

export default defineConfig(({ mode }) => {
  if (mode === 'cdn') {
    return {
      publicDir: false,
      // The layout whitespace of our css`` and html`` templates is string content the minifier keeps.
      plugins: [minifyLitTemplatesPlugin()],
      build: {
        outDir: 'dist/cdn',
        emptyOutDir: true,
        target: 'es2022',
        // Terser runs after Rolldown's own minifier (`output.minify` below) and does what that one leaves: it inlines
        // functions called once and drops the aliases of re-exported constants (−64 B gzip; either alone is larger).
        minify: 'terser',
        terserOptions: { module: true, compress: { passes: 3 } },
        sourcemap: true,
        lib: { entry: 'src/widget/cdn.ts', formats: ['es'], fileName: () => 'social-link.js' },
        // Vite keeps whitespace in ES library output (for the npm case); this file goes straight to browsers.
        // Locale texts load on demand as dist/cdn/<locale>.js; short names keep the bundle within its budget.
        // Annotation comments (`/* @__PURE__ */`) are only for bundlers, and no bundler reads this file.
        rolldownOptions: { output: { minify: true, chunkFileNames: '[name].js', comments: { annotation: false } } },
      },
    };
  }
  return {
    publicDir: false,
    build: {
      outDir: 'dist/lib',
      emptyOutDir: true,
      target: 'es2022',
      // open-wc publishing guide: no minifying in the npm package; integrators' bundlers do it.
      minify: false,
      sourcemap: true,
      lib: {
        entry: {
          index: 'src/index.ts',
          define: 'src/widget/define.ts',
          protocol: 'src/protocol/index.ts',
          client: 'src/client/index.ts',
          webhooks: 'src/webhooks/index.ts',
          react: 'src/react/index.ts',
        },
        formats: ['es'],
        fileName: (_format, name) => `${name}.js`,
      },
      rolldownOptions: {
        // React is the integrator's (a peer dependency of the react entry only), never bundled.
        external: (id: string) => /^(lit|@lit|zod|react|react-dom)(\/|$)/.test(id),
      },
    },
  };
});
