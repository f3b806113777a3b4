/**
 * Writes the README's settings table from server/src/settings-schema.ts (settings-table.ts). Run after changing a
 * setting: `node --import tsx scripts/write-settings-table.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from './settings-table.js';

const readme = new URL('../README.md', import.meta.url);
writeFileSync(readme, withSettingsTable(readFileSync(readme, 'utf8')));
console.log('wrote the settings table in README.md');
