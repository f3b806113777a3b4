/**
 * @module
 * The page the OAuth popup lands on after the callback. It carries the outcome in data attributes (no inline
 * script: strict CSP), and /connect/result.js hands it to the hosted page that opened the popup — same origin
 * only — then closes the window. If the opener is gone (COOP, closed), the user reads the outcome here and the
 * hosted page learns it from the server.
 */
import type { Network } from '@social-link-kit/protocol';
import { MESSAGE_SOURCE, NETWORK_LABELS, PROTOCOL_VERSION } from '@social-link-kit/protocol';
import { escapeHtml, htmlPageHeaders } from '../../core/http/html.js';

export type ConnectOutcome =
  | { outcome: 'success'; platform: Network }
  | { outcome: 'cancelled'; platform: Network | null; reason: 'denied' }
  | { outcome: 'error'; platform: Network | null; code: number; message: string };

export const CONNECT_PAGE_HEADERS = htmlPageHeaders(
  { 'script-src': "'self'", 'style-src': "'self'" },
  // The popup must keep its opener to post the outcome back.
  { 'Cross-Origin-Opener-Policy': 'unsafe-none' },
);

export function connectResultPage(result: ConnectOutcome): string {
  const label = result.platform ? NETWORK_LABELS[result.platform] : 'the network';
  const heading =
    result.outcome === 'success'
      ? `${label} is connected`
      : result.outcome === 'cancelled'
        ? `${label} was not connected`
        : `${label} could not be connected`;
  const detail =
    result.outcome === 'success'
      ? 'You can close this window.'
      : result.outcome === 'cancelled'
        ? 'You declined the request. You can close this window and try again.'
        : `${result.message} (code ${result.code})`;
  const data: Record<string, string> = { outcome: result.outcome, platform: result.platform ?? '' };
  if (result.outcome === 'error') Object.assign(data, { code: String(result.code), message: result.message });
  if (result.outcome === 'cancelled') data.reason = result.reason;
  const attributes = Object.entries(data)
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)}</title><link rel="stylesheet" href="/connect/result.css">
<script type="module" src="/connect/result.js"></script></head>
<body${attributes}><main><h1>${escapeHtml(heading)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`;
}

/** Runs in the popup: posts the outcome to the opener on our own origin only, then closes. */
export const RESULT_SCRIPT = `const data = document.body.dataset;
const message = { source: ${JSON.stringify(MESSAGE_SOURCE)}, version: ${JSON.stringify(PROTOCOL_VERSION)}, event: 'oauth:result', outcome: data.outcome, platform: data.platform || undefined };
if (data.code) message.code = Number(data.code);
if (data.message) message.message = data.message;
if (data.reason) message.reason = data.reason;
try {
  if (window.opener && !window.opener.closed) {
    window.opener.postMessage(message, window.location.origin);
    setTimeout(() => window.close(), 300);
  }
} catch {
  // The opener is cut off (COOP); the hosted page reads the outcome from the server instead.
}
`;

export const RESULT_STYLES = `body{font-family:system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;background:#f6f7fb;color:#1d2433}
main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.4rem}`;
