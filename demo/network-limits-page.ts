/**
 * @module
 * The demo's page of each network's publishing limits (`/network-limits`): the same rows as docs/network-limits.md,
 * rendered from the code that enforces them, as an HTML table an integrator can keep open beside the composer.
 */
import { escapeHtml } from '../server/src/core/http/html.js';
import { NETWORK_LIMITS_COLUMNS, networkLimitsRows } from '../scripts/network-limits-table.js';

/** A cell's `backticked` names as <code>, everything else escaped. */
function cellHtml(cell: string): string {
  return cell
    .split('`')
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : escapeHtml(part)))
    .join('');
}

export function networkLimitsPage(): string {
  const head = NETWORK_LIMITS_COLUMNS.map((column) => `<th scope="col">${escapeHtml(column)}</th>`).join('');
  const rows = networkLimitsRows()
    .map(([network, ...cells]) => `<tr><th scope="row">${cellHtml(network!)}</th>${cells.map((cell) => `<td>${cellHtml(cell)}</td>`).join('')}</tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Network limits · Acme Scheduler demo</title><link rel="stylesheet" href="/demo.css"></head>
<body><main>
<h1>What each network takes</h1>
<p>As the service checks a post when it is created: text in the network's own unit, media counts and types, video
durations and sizes, image aspect ratios. HEIC, HEIF and AVIF images are converted to JPEG for every network.</p>
<div class="table-scroll" tabindex="0" role="region" aria-label="Network limits">
<table><thead><tr>${head}</tr></thead>
<tbody>
${rows}
</tbody></table></div>
<p><a href="/">Back to the demo</a></p>
</main></body></html>
`;
}
