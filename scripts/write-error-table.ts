/**
 * Writes docs/errors.md from the one error table. Run after changing src/protocol/error-table.ts:
 * `node --import tsx scripts/write-error-table.ts`.
 */
import { writeFileSync } from 'node:fs';
import { ERROR_TABLE_FILE, renderErrorTable } from './error-table-doc.js';

writeFileSync(new URL(`../${ERROR_TABLE_FILE}`, import.meta.url), renderErrorTable());
console.log(`wrote ${ERROR_TABLE_FILE}`);
