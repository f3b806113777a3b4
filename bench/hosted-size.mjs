// Initial-load budget of the hosted linking page: the JS and CSS that hosted/dist/index.html loads before the
// page can work — its <script src>, <link rel=stylesheet> and <link rel=modulepreload> files, plus every chunk
// those scripts import statically — measured raw, gzip (level 9) and brotli. Exits 1 when gzip exceeds 30 KB
// (30 * 1024 bytes), or when the HTML carries an inline script (the CSP allows none).
// Run `npm run build:hosted` first (`npm run bench:hosted` does).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../hosted/dist/', import.meta.url));
const BASE = '/link/';
const BUDGET_GZIP = 30 * 1024;

const html = readFileSync(join(DIST, 'index.html'), 'utf8');
const attribute = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;

/** dist-relative path of a URL the page asks for, or null for anything outside the build (none expected). */
function distPath(url, from = BASE) {
  const resolved = new URL(url, `http://page${from}`);
  if (resolved.host !== 'page' || !resolved.pathname.startsWith(BASE)) return null;
  return resolved.pathname.slice(BASE.length);
}

const initial = new Set();
const outside = [];
const inlineScripts = [];
for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
  const isScript = tag.startsWith('<script');
  const rel = attribute(tag, 'rel');
  const url = isScript ? attribute(tag, 'src') : rel === 'stylesheet' || rel === 'modulepreload' ? attribute(tag, 'href') : null;
  if (isScript && url === null) inlineScripts.push(tag);
  if (url === null) continue;
  const path = distPath(url);
  if (path === null) outside.push(url);
  else initial.add(path);
}
// Inline script bodies (a <script> without src followed by code) break the CSP.
for (const match of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
  if (match[1].trim().length > 0) inlineScripts.push(match[0].slice(0, 80));
}

// Static imports of the initial scripts load before the page runs: follow them. Dynamic import() does not count.
const queue = [...initial].filter((path) => path.endsWith('.js'));
while (queue.length > 0) {
  const file = queue.shift();
  const code = readFileSync(join(DIST, file), 'utf8');
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]*from\s*)?["']([^"']+\.js)["']/g)) {
    const spec = match[1];
    if (!spec.startsWith('.') && !spec.startsWith('/')) continue;
    const path = relative(DIST, join(DIST, dirname(file), spec)).split('\\').join('/');
    const normalized = spec.startsWith('/') ? distPath(spec) : path;
    if (normalized && !initial.has(normalized) && existsSync(join(DIST, normalized))) {
      initial.add(normalized);
      queue.push(normalized);
    }
  }
}

const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;
let totalRaw = 0;
let totalGzip = 0;
let totalBrotli = 0;
for (const file of [...initial].sort()) {
  const content = readFileSync(join(DIST, file));
  const gzip = gzipSync(content, { level: 9 }).length;
  const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  totalRaw += content.length;
  totalGzip += gzip;
  totalBrotli += brotli;
  console.log(`hosted/dist/${file}  raw ${kb(content.length)}  gzip ${kb(gzip)}  brotli ${kb(brotli)}`);
}
console.log(`initial JS+CSS (${initial.size} files)  raw ${kb(totalRaw)}  gzip ${kb(totalGzip)} (${totalGzip} B)  brotli ${kb(totalBrotli)}`);
console.log(`budget gzip ${kb(BUDGET_GZIP)}: ${totalGzip <= BUDGET_GZIP ? 'ok' : 'OVER'} (${BUDGET_GZIP - totalGzip} B left)`);

let failed = totalGzip > BUDGET_GZIP;
if (initial.size === 0) {
  console.error('index.html loads no JS or CSS from the build: is hosted/dist built?');
  failed = true;
}
if (outside.length > 0) {
  console.error(`index.html loads files from outside the build (third-party hosts are not allowed): ${outside.join(', ')}`);
  failed = true;
}
if (inlineScripts.length > 0) {
  console.error(`index.html has inline scripts, which the CSP (script-src 'self') refuses: ${inlineScripts.join(' | ')}`);
  failed = true;
}
if (failed) process.exit(1);
