/**
 * The network's sign-in runs top-level in a popup (networks refuse to be framed). The popup is opened
 * synchronously in the click (about:blank, then navigated) so popup blockers allow it, and never with
 * `noopener`: its callback page reports back to us on our own origin. If it closes without a report, the
 * caller asks the server, which is the source of truth.
 */
import { MESSAGE_SOURCE } from '../../src/protocol/constants.js';

export type OAuthWindowResult =
  | { outcome: 'success' }
  | { outcome: 'cancelled'; reason: string }
  | { outcome: 'error'; code: number; message: string }
  | { outcome: 'closed' };

const POLL_MS = 400;
const CLOSE_GRACE_MS = 600;

/** Call inside the click handler, before any await. Null when the browser blocked it. */
export function openOAuthWindow(): Window | null {
  const width = 560;
  const height = 720;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open('about:blank', '_blank', `popup,width=${width},height=${height},left=${left},top=${top}`);
}

export function waitForOAuthResult(popup: Window, platform: string): { result: Promise<OAuthWindowResult>; cancel(): void } {
  let finish: (result: OAuthWindowResult) => void = () => {};
  const result = new Promise<OAuthWindowResult>((resolve) => (finish = resolve));
  let settled = false;
  let closedAt = 0;

  const onMessage = (event: MessageEvent) => {
    if (event.origin !== window.location.origin || event.source !== popup) return;
    const data = event.data as Record<string, unknown> | null;
    if (!data || data.source !== MESSAGE_SOURCE || data.event !== 'oauth:result' || data.platform !== platform) return;
    if (data.outcome === 'success') settle({ outcome: 'success' });
    else if (data.outcome === 'cancelled') settle({ outcome: 'cancelled', reason: String(data.reason ?? 'denied') });
    else if (data.outcome === 'error') settle({ outcome: 'error', code: Number(data.code ?? 513), message: String(data.message ?? '') });
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
