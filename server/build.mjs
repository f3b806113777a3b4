// `npm run build --workspace server`: the service as plain JavaScript in server/dist, run by `node` with no loader.
// (start.js, the root's `npm start`, also bundles the demo site; the image leaves it unused.)
// esbuild bundles the service's own code (and the shared protocol package it imports) into ES modules, leaving every
// package in node_modules as an import: the three entry points below, their shared code in chunks. server/dist sits
// two levels below the root like server/src, so src/paths.ts resolves the same files from either.
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';

/** The hosted page's first-screen renderer is a build of its own (hosted/vite.config.ts), loaded as it is. */
const hostedRenderer = {
  name: 'hosted-renderer',
  setup(build) {
    build.onResolve({ filter: /hosted\/dist\/server\/first-screen\.js$/ }, () => ({ path: '../../hosted/dist/server/first-screen.js', external: true }));
  },
};

/**
 * The shared protocol (src/protocol, `@social-link-kit/protocol`) and the sandbox (sandbox/, `@social-link-kit/sandbox`)
 * are workspace packages of TypeScript sources: they are bundled into the service like its own code, and so is the
 * service's own seam the sandbox imports by name (`@social-link-kit/server/sandbox-host.js`, `…/sandbox-kit.js`),
 * while every other package stays an import.
 */
const WORKSPACE_SOURCES = {
  '@social-link-kit/protocol': { root: '../src/protocol/', main: 'index.ts' },
  '@social-link-kit/sandbox': { root: '../sandbox/src/', main: 'index.ts' },
  '@social-link-kit/server': { root: './src/', main: null },
};
const workspaceSources = {
  name: 'workspace-sources',
  setup(build) {
    build.onResolve({ filter: /^@social-link-kit\/(protocol|sandbox|server)(\/|$)/ }, ({ path }) => {
      const name = Object.keys(WORKSPACE_SOURCES).find((key) => path === key || path.startsWith(`${key}/`));
      const { root, main } = WORKSPACE_SOURCES[name];
      const subpath = path.slice(name.length).replace(/^\//, '');
      if (subpath === '' && main === null) return { errors: [{ text: `${name} has no main module` }] };
      return { path: new URL(root, import.meta.url).pathname + (subpath === '' ? main : subpath.replace(/\.js$/, '.ts')) };
    });
  },
};

const out = new URL('./dist/', import.meta.url);
rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: new URL('.', import.meta.url).pathname,
  entryPoints: {
    main: 'src/main.ts',
    cli: 'src/accounts/admin/cli.ts',
    // image-conversion-pool.ts starts its threads from this name beside it.
    'image-conversion-worker': 'src/publishing/media/image-conversion-worker.ts',
    // The root's `npm start`: the service with the demo integrator site beside it.
    start: '../scripts/start.ts',
  },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  // Flat: every module of the build is in dist/ itself, where paths.ts and the worker's address expect it.
  chunkNames: '[name]-[hash]',
  sourcemap: 'linked',
  legalComments: 'none',
  plugins: [hostedRenderer, workspaceSources],
  logLevel: 'warning',
});
// The sandbox's sample photos, read relative to the module that reads them (in dist/).
cpSync(new URL('../sandbox/src/media/fixtures/', import.meta.url), new URL('./fixtures/', out), { recursive: true });
