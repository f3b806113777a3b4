// `npm test --workspace server` runs the server suites from one esbuild bundle per test file (.tmp/server-tests),
// with the service code they share split into chunks. Run from TypeScript through tsx, every test process spent
// ~1.5 s of CPU loading ~600 modules through tsx's loader thread; bundled, the suite's CPU time falls by a quarter
// (730 → 538 s on one run), which CI's two cores feel three times (SQLite, PostgreSQL, Node 24).
// Each source file keeps its own `import.meta.url` (replaced by its source file's URL), so paths read next to a
// source file (README.md, fixtures, the hosted page's build) resolve as they do from source. Packages stay imports;
// the workspace packages (protocol, sandbox, the service's sandbox seam) are bundled from source as build.mjs does.
// Usage: node scripts/bundle-server-tests.mjs [--out DIR] [server/test/<dir>/<file>.test.ts ...]
// (scripts/test-server.mjs bundles into a folder of its own and runs the bundles, so two runs can go on at once.)
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import { readdirSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const outFlag = args.indexOf('--out');
const OUT = outFlag >= 0 ? args.splice(outFlag, 2)[1] : '.tmp/server-tests';
const testDir = resolve(root, 'server/test');
const allTests = readdirSync(testDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) => readdirSync(resolve(testDir, dir.name)).filter((file) => file.endsWith('.test.ts')).map((file) => `server/test/${dir.name}/${file}`));
const entries = args.length > 0 ? args : allTests;

const WORKSPACE = {
  '@social-link-kit/protocol': ['src/protocol/', 'index.ts'],
  '@social-link-kit/sandbox': ['sandbox/src/', 'index.ts'],
  '@social-link-kit/server': ['server/src/', null],
};
const imports = {
  name: 'imports',
  setup(b) {
    // Built artefacts (the hosted page's renderer) stay imports of the built file, by absolute URL.
    b.onResolve({ filter: /\/dist\// }, ({ path, resolveDir }) => ({ path: pathToFileURL(resolve(resolveDir, path)).href, external: true }));
    b.onResolve({ filter: /^[^./]/ }, ({ path }) => {
      const name = Object.keys(WORKSPACE).find((key) => path === key || path.startsWith(`${key}/`));
      if (!name) return { path, external: true };
      const [dir, main] = WORKSPACE[name];
      const subpath = path.slice(name.length).replace(/^\//, '');
      if (subpath === '' && main === null) return { errors: [{ text: `${name} has no main module` }] };
      return { path: resolve(root, dir, subpath === '' ? main : subpath.replace(/\.js$/, '.ts')) };
    });
  },
};
const sourceUrls = {
  name: 'source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
      const text = await readFile(path, 'utf8');
      return {
        contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)).replaceAll('import.meta.dirname', JSON.stringify(resolve(path, '..'))),
        loader: 'ts',
      };
    });
  },
};

const started = Date.now();
rmSync(resolve(root, OUT), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: entries,
  outdir: OUT,
  outbase: '.',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'inline',
  plugins: [imports, sourceUrls],
  logLevel: 'warning',
});
console.log(`bundled ${entries.length} server test files into ${OUT} in ${Date.now() - started} ms`);
