/**
 * Writes the README's pinned script tag from the widget build in dist/cdn (widget-snippet.ts). Run after
 * `npm run build:cdn` whenever the widget changed: `node --import tsx scripts/write-widget-snippet.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { currentWidgetBuild, withWidgetSnippet } from './widget-snippet.js';

const readme = new URL('../README.md', import.meta.url);
const build = currentWidgetBuild();
writeFileSync(readme, withWidgetSnippet(readFileSync(readme, 'utf8'), build));
console.log(`wrote the widget snippet in README.md (${build.id})`);
