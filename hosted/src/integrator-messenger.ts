/**
 * Tells the integrator's page what happened (DESIGN.md step 5). Messages go only to the session's `origin`, as
 * stored by the service: to `window.parent` in frame mode, `window.opener` in popup mode, never to `*`. A native
 * app's custom-scheme origin gets a navigation with query parameters instead (its backend confirms by reading
 * the session). No origin, no messages.
 */
import { EMBED_MODE_PARAM, MESSAGE_SOURCE, PROTOCOL_VERSION, type EmbedMode } from '@social-link-kit/protocol/constants.js';
import type { CancelReason, DisconnectedMessage, OutcomeMessage, ReadyMessage, ResizeMessage } from '@social-link-kit/protocol/messages.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { parseSessionOrigin, type SessionOrigin } from '@social-link-kit/protocol/origin.js';

export type PageMode = 'frame' | 'popup' | 'direct';

export function detectMode(): PageMode {
  if (window.parent !== window) return 'frame';
  if (window.opener) return 'popup';
  return 'direct';
}

/**
 * How the page is embedded, for the max-pack rule (spec 5.7, EMBED_MODE_PARAM): any frame; a popup only when the
 * widget opened it (`?embed=popup`). A popup or tab opened without the widget is direct mode.
 */
export function detectEmbed(mode: PageMode): EmbedMode | null {
  if (mode === 'frame') return 'frame';
  return mode === 'popup' && new URLSearchParams(window.location.search).get(EMBED_MODE_PARAM) === 'popup' ? 'popup' : null;
}

/** A message without the envelope fields `send` adds; distributes over the union so each event keeps its fields. */
type Outgoing = ReadyMessage | OutcomeMessage | DisconnectedMessage | ResizeMessage extends infer M ? (M extends unknown ? Omit<M, 'source' | 'version' | 'sessionId'> : never) : never;

export function createMessenger(sessionId: string, origin: string | null, mode: PageMode) {
  const target: SessionOrigin | null = parseSessionOrigin(origin);

  function send(message: Outgoing): void {
    if (!target || target.kind !== 'web') return;
    const window_ = mode === 'frame' ? window.parent : mode === 'popup' ? window.opener : null;
    if (!window_) return;
    try {
      (window_ as Window).postMessage({ source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId, ...message }, target.origin);
    } catch {
      // The opener was closed or navigated away; the integrator reads the session instead.
    }
  }

  /** For a native app, leaving the page is the message. Only the session id and an outcome travel. */
  function returnToApp(event: string, platform?: Network): boolean {
    if (target?.kind !== 'app') return false;
    const url = new URL(target.url);
    url.searchParams.set('event', event);
    url.searchParams.set('sessionId', sessionId);
    if (platform) url.searchParams.set('platform', platform);
    window.location.assign(url.href);
    return true;
  }

  return {
    ready: () => send({ event: 'connect:ready' }),
    resize: (height: number) => send({ event: 'connect:resize', height }),
    success(platform: Network) {
      send({ event: 'connect:success', platform });
      returnToApp('connect:success', platform);
    },
    error(code: number, message: string, platform?: Network, reason?: string) {
      // Spec 6.4: codes 501-503 never arrive as connect:error; the user sees the reason, the page gets
      // connect:cancelled when the user closes.
      if (code >= 501 && code <= 503) return;
      send({ event: 'connect:error', code, message: message.slice(0, 500), ...(platform && { platform }), ...(reason && { reason }) });
    },
    /** Not sent to native apps: their backend reads the session. */
    disconnected: (platform: Network) => send({ event: 'connect:disconnected', platform }),
    cancelled(reason: CancelReason, platform?: Network) {
      send({ event: 'connect:cancelled', reason, ...(platform && { platform }) });
      if (reason !== 'denied' && reason !== 'popup_closed') returnToApp('connect:cancelled');
    },
  };
}
export type Messenger = ReturnType<typeof createMessenger>;
