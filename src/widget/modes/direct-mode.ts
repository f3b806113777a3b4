import type { LinkRunContext, ModeDriver } from './mode-driver.js';

/**
 * Direct mode: the current window navigates to the hosted page; no messages come back. When the session was
 * created with `redirect`, the hosted page returns the user there afterwards (see docs/widget.md).
 */
export function directMode(run: LinkRunContext): ModeDriver {
  return {
    begin: () => true,
    navigate(url) {
      window.location.assign(url);
      run.finish();
    },
    source: () => null,
  };
}
