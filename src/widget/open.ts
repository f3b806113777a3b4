/**
 * @module
 * `open()`: the framework-free entry point of the widget.
 */
import { createLinkRun, type LinkRun } from './link-run.js';
import type { LinkHandle, OpenOptions } from './link-options.js';

// One link at a time per page: a second open() supersedes the first.
let activeRun: LinkRun | null = null;

/**
 * Shows the hosted linking page in a modal frame (default), a popup or by navigating (`direct`).
 * Call it inside the click handler, before any `await`: popup mode opens its window synchronously.
 *
 * @example
 * open({ getUrl: () => fetch('/link-session', { method: 'POST' }).then((r) => r.json()), mode: 'popup',
 *   onSuccess: ({ platform }) => refresh(platform) });
 */
export function open(options: OpenOptions): LinkHandle {
  // Superseding a link that has already ended does nothing, so the last one may stay here until the next open().
  activeRun?.supersede();
  const run = createLinkRun(options);
  activeRun = run;
  run.start();
  return run.handle;
}
