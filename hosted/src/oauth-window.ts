/**
 * The network's sign-in runs top-level in a popup (networks refuse to be framed). The popup is opened
 * synchronously in the click (about:blank, then navigated) so popup blockers allow it, and never with
 * `noopener`: its callback page reports back to us on our own origin. If it closes without a report, the
 * caller asks the server, which is the source of truth.
 */
import type { Network } from '@social-link-kit/protocol/networks.js';
import { SIGN_IN_POPUP, openCenteredPopup } from '../../src/widget/popup-window.js';
import { schemas, type Schemas } from './schemas.js';

export type OAuthWindowResult =
  | { outcome: 'success' }
  | { outcome: 'cancelled'; reason: string }
  | { outcome: 'error'; code: number; message: string }
  | { outcome: 'closed' };

const POLL_MS = 400;
const CLOSE_GRACE_MS = 600;

/** Call inside the click handler, before any await. Null when the browser blocked it. */
export function openOAuthWindow(): Window | null {
  return openCenteredPopup(SIGN_IN_POPUP);
}

export function waitForOAuthResult(popup: Window, platform: Network): { result: Promise<OAuthWindowResult>; cancel(): void } {
  let finish: (result: OAuthWindowResult) => void = () => {};
  const result = new Promise<OAuthWindowResult>((resolve) => (finish = resolve));
  let settled = false;
  let closedAt = 0;

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== window.location.origin || event.source !== popup) return;
    // Loaded long before any sign-in ends (main.ts starts it after the first render); the close check waits longer.
    void schemas().then(({ parseOAuthResultMessage }) => handle(parseOAuthResultMessage(event.data)));
  };
  const handle = (message: ReturnType<Schemas['parseOAuthResultMessage']>) => {
    if (!message || message.platform !== platform) return;
    if (message.outcome === 'success') settle({ outcome: 'success' });
    else if (message.outcome === 'cancelled') settle({ outcome: 'cancelled', reason: message.reason });
    else settle({ outcome: 'error', code: message.code, message: message.message });
  };
  const timer = window.setInterval(() => {
    if (!popup.closed) return;
    closedAt ||= Date.now();
    if (Date.now() - closedAt >= CLOSE_GRACE_MS) settle({ outcome: 'closed' });
  }, POLL_MS);

  function settle(value: OAuthWindowResult) {
    if (settled) return;
    settled = true;
    window.removeEventListener('message', onMessage);
    window.clearInterval(timer);
    finish(value);
  }
  window.addEventListener('message', onMessage);
  return {
    result,
    cancel() {
      settle({ outcome: 'closed' });
      if (!popup.closed) popup.close();
    },
  };
}
