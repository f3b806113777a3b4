// Size budget of the script-tag build: prints raw, gzip and brotli sizes of dist/cdn/social-link.js and exits 1
// when gzip exceeds the budget (BUDGET_GZIP below). Run `npm run build:cdn` first (bench:size does).
// Then the parts, from the source map: raw bytes of each source, and what each one adds to the gzip size
// (the file's gzip size minus that of the file with the part's code cut out; these do not add up exactly,
// as gzip shares repeats across parts).
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const FILE = new URL('../dist/cdn/social-link.js', import.meta.url);
// 8,780 B: the size after issue 17's third widget pass (8,630 B: Terser after Rolldown's minifier, template line
// breaks out of the strings, a table-driven message check, simpler modes) plus about 150 B of margin; the target
// is 8 KB (8,192 B).
const BUDGET_GZIP = 8780;

const code = readFileSync(FILE);
const gzipSize = (bytes) => gzipSync(bytes, { level: 9 }).length;
const gzip = gzipSize(code);
const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

console.log(`dist/cdn/social-link.js  raw ${kb(code.length)}  gzip ${kb(gzip)} (${gzip} B)  brotli ${kb(brotli)}`);
console.log(`budget gzip ${kb(BUDGET_GZIP)}: ${gzip <= BUDGET_GZIP ? 'ok' : 'OVER'} (${BUDGET_GZIP - gzip} B left)`);

/** The part a source belongs to: Lit as a whole (only its template engine, lit-html, is bundled), or our module. */
function partOf(source) {
  if (!source) return '(glue)';
  if (/node_modules\/(lit|lit-html|lit-element|@lit)\//.test(source)) return 'lit (lit-html: render, html)';
  const ours = /\bsrc\/(.*)$/.exec(source);
  return ours ? ours[1] : source;
}

/** For each part, the character ranges of the (single-line ASCII-safe) generated code that map to it. */
function rangesByPart(text, map) {
  const lines = text.split('\n');
  const ranges = new Map();
  lines.forEach((line, lineIndex) => {
    const offset = lines.slice(0, lineIndex).reduce((sum, previous) => sum + previous.length + 1, 0);
    let current = null;
    let start = 0;
    for (let column = 0; column <= line.length; column++) {
      const entry = column < line.length ? map.findEntry(lineIndex, column) : null;
      const part = column < line.length ? partOf(entry?.originalSource) : null;
      if (part === current) continue;
      if (current !== null) ranges.set(current, [...(ranges.get(current) ?? []), [offset + start, offset + column]]);
      current = part;
      start = column;
    }
  });
  return ranges;
}

const text = code.toString('utf8');
const map = new SourceMap(JSON.parse(readFileSync(new URL('../dist/cdn/social-link.js.map', import.meta.url), 'utf8')));
const parts = [...rangesByPart(text, map)].map(([part, ranges]) => {
  const raw = ranges.reduce((sum, [from, to]) => sum + Buffer.byteLength(text.slice(from, to)), 0);
  let rest = '';
  let last = 0;
  for (const [from, to] of [...ranges].sort((a, b) => a[0] - b[0])) {
    rest += text.slice(last, from);
    last = to;
  }
  rest += text.slice(last);
  return { part, raw, gzipAdded: gzip - gzipSize(Buffer.from(rest)) };
});
parts.sort((a, b) => b.gzipAdded - a.gzipAdded);
console.log('\npart                                            raw B   adds to gzip B');
for (const { part, raw, gzipAdded } of parts) {
  console.log(`${part.padEnd(46)} ${String(raw).padStart(7)}   ${String(gzipAdded).padStart(6)}`);
}

if (gzip > BUDGET_GZIP) process.exit(1);
