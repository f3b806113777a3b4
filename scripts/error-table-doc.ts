/**
 * @module
 * docs/errors.md rendered from the one error table (src/protocol/error-table.ts). Pure: write-error-table.ts
 * writes the file and a server test fails when the file no longer matches what this renders.
 */
import { ERROR_TABLE } from '@social-link-kit/protocol/error-table.js';

export const ERROR_TABLE_FILE = 'docs/errors.md';

export function renderErrorTable(): string {
  const rows = ERROR_TABLE.map((row) => {
    const http = row.http === null ? '-' : row.http === 200 ? '200 (warning)' : String(row.http);
    return `| ${row.code} | ${http}${row.ours ? ' *' : ''} | ${row.meaning.replaceAll('|', '\\|')} |`;
  });
  return [
    '# Error codes and HTTP statuses',
    '',
    '<!-- Generated from src/protocol/error-table.ts by `node --import tsx scripts/write-error-table.ts`; do not edit. -->',
    '',
    'Every failure is the envelope `{status: "error", action, code, message, details?}`. Its HTTP status is the',
    "code's row below, also when a network refused a post and nothing was published (the first failing network's",
    'code decides). Back off and retry on 429 and 5xx; 4xx needs a change first. Match on `code`, not the message.',
    'A status marked `*` is ours: the spec leaves it open or the code is ours.',
    '',
    '| Code | HTTP | When |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
