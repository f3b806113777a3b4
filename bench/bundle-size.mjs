// Size budget of the script-tag build: prints raw, gzip and brotli sizes of dist/cdn/social-link.js and exits 1
// when gzip exceeds the budget (12 KB = 12 * 1024 bytes). Run `npm run build:cdn` first (bench:size does).
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const FILE = new URL('../dist/cdn/social-link.js', import.meta.url);
const BUDGET_GZIP = 12 * 1024;

const code = readFileSync(FILE);
const gzip = gzipSync(code, { level: 9 }).length;
const brotli = brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(2)} KB`;

console.log(`dist/cdn/social-link.js  raw ${kb(code.length)}  gzip ${kb(gzip)} (${gzip} B)  brotli ${kb(brotli)}`);
console.log(`budget gzip ${kb(BUDGET_GZIP)}: ${gzip <= BUDGET_GZIP ? 'ok' : 'OVER'} (${BUDGET_GZIP - gzip} B left)`);
if (gzip > BUDGET_GZIP) process.exit(1);
