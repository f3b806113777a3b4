/**
 * @module
 * One `open()` from start to end: accepts messages only from the hosted page's window and origin, turns them into
 * DOM events and callbacks (each outcome once), and removes the UI on every ending.
 */
import { EMBED_MODE_PARAM, OPENER_ORIGIN_PARAM, ORIGIN_MISMATCH_REASON } from '../protocol/constants.js';
import type { CancelReason } from '../protocol/messages.js';
import type { Network } from '../protocol/networks.js';
import { SocialLinkCancelEvent, type SocialLinkCancelDetail } from './events/social-link-cancel.js';
import { SocialLinkDisconnectEvent, type SocialLinkDisconnectDetail } from './events/social-link-disconnect.js';
import { SocialLinkErrorEvent, type SocialLinkErrorDetail, type WidgetErrorReason } from './events/social-link-error.js';
import { SocialLinkReadyEvent, type SocialLinkReadyDetail } from './events/social-link-ready.js';
import { SocialLinkSuccessEvent, type SocialLinkSuccessDetail } from './events/social-link-success.js';
import { parseInboundMessage } from './inbound-message.js';
import type { LinkEventDetail, LinkHandle, LinkStatus, LinkTarget, OpenOptions } from './link-options.js';
import { directMode } from './modes/direct-mode.js';
import { frameMode } from './modes/frame-mode.js';
import type { LinkRunContext, ModeDriver } from './modes/mode-driver.js';
import { popupMode } from './modes/popup-mode.js';
import { resolveTexts } from './texts.js';
import { widgetCatalogues, widgetLocale } from './widget-locale.js';

const DEFAULT_CLOSE_GRACE_MS = 1000;

interface EventDetails {
  ready: SocialLinkReadyDetail;
  success: SocialLinkSuccessDetail;
  error: SocialLinkErrorDetail;
  cancel: SocialLinkCancelDetail;
  disconnect: SocialLinkDisconnectDetail;
}
type EventKind = keyof EventDetails;

/** Each kind of event and its DOM event class; its callback is `on` + the kind (`onReady`, …). */
const EVENT_CLASSES: { [K in EventKind]: new (detail: EventDetails[K]) => Event } = {
  ready: SocialLinkReadyEvent,
  success: SocialLinkSuccessEvent,
  error: SocialLinkErrorEvent,
  cancel: SocialLinkCancelEvent,
  disconnect: SocialLinkDisconnectEvent,
};

/** The link URL parsed, when it is an absolute http(s) URL: the only kind shown. */
function httpUrl(url: unknown): URL | null {
  try {
    const parsed = new URL(url as string);
    // A string only: `new URL` would also take an array or an object by its text.
    return typeof url === 'string' && /^https?:$/.test(parsed.protocol) ? parsed : null;
  } catch {
    return null;
  }
}

/** Calls an integrator callback without letting its exception break the widget. */
function invoke<T>(callback: ((value: T) => void) | undefined, value: T): void {
  if (!callback) return;
  try {
    callback(value);
  } catch (error) {
    reportError(error);
  }
}

export interface LinkRun {
  readonly handle: LinkHandle;
  /**
   * Synchronous up to the first `await`, so the popup opens inside the user's click. `getUrl` is called right
   * after the window or dialog exists and before anything is drawn in it (the modes defer their loading notes), so
   * the integrator's backend starts creating the session as early as it can; a blocked popup creates none.
   */
  start(): void;
  /** Another `open()` replaced this one. */
  supersede(): void;
}

/**
 * A run's state lives in this closure rather than in class fields: the minifier can shorten local names but not
 * property names, which keeps the script-tag build smaller.
 */
export function createLinkRun(options: OpenOptions): LinkRun {
  const locale = widgetLocale(options.locale);
  const texts = resolveTexts(options.texts, widgetCatalogues.get(locale));
  const mode = options.mode ?? 'frame';
  const messagesBack = mode !== 'direct';
  let sessionId: string | null = null;
  let closed = false;
  let hostedOrigin: string | null = null;
  let isReady = false;
  const linked = new Set<Network>();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));

  /** Dispatches the DOM event (on the button that opened the link, or `document`), then the callbacks. */
  function emit<K extends EventKind>(type: K, detail: EventDetails[K]): void {
    (options.eventTarget ?? document).dispatchEvent(new EVENT_CLASSES[type](detail));
    const callback = `on${type[0]!.toUpperCase()}${type.slice(1)}` as `on${Capitalize<K>}`;
    invoke(options[callback] as ((detail: EventDetails[K]) => void) | undefined, detail);
    invoke(options.onEvent, { type, ...detail } as LinkEventDetail);
  }

  /** The widget's own errors: no code from the spec, a reason of ours. */
  function widgetError(reason: WidgetErrorReason, message: string): void {
    emit('error', { sessionId, code: null, reason, message });
  }

  function finish(): void {
    if (closed) return;
    closed = true;
    window.removeEventListener('message', handleMessage);
    driver.teardown?.();
    resolveDone();
  }

  /** The user closed the UI. After a success this is just a close, not a cancel. */
  function cancel(reason: CancelReason): void {
    if (closed) return;
    if (linked.size === 0) emit('cancel', { sessionId, reason });
    finish();
  }

  function fail(reason: WidgetErrorReason, message: string): void {
    if (closed) return;
    widgetError(reason, message);
    finish();
  }

  function succeed(platform: Network, via: SocialLinkSuccessDetail['via']): void {
    if (linked.has(platform)) return;
    linked.add(platform);
    emit('success', { sessionId, platform, via });
  }

  /**
   * The popup reads as closed. A message may still be in flight, and COOP can make a live popup read as closed,
   * so wait a grace period, then ask the integrator's backend (the source of truth) before calling it cancelled.
   */
  async function decideAfterClose(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS));
    if (closed || linked.size > 0) return finish();
    let status: LinkStatus | undefined;
    try {
      status = await options.checkStatus?.(sessionId);
    } catch {
      // Unknown: report what we saw, a closed popup.
    }
    if (closed) return;
    for (const platform of status?.completedNetworks ?? []) succeed(platform, 'status');
    // After a success from the status this is a plain close (cancel() fires nothing then).
    cancel(status?.state === 'expired' || status?.state === 'revoked' ? status.state : 'popup_closed');
  }

  const context: LinkRunContext = {
    options,
    texts,
    locale,
    cancel,
    fail,
    finish,
    // Frame mode's timer, which teardown() clears.
    loadTimedOut() {
      widgetError('load_timeout', 'The linking page did not announce itself in time.');
    },
    windowClosed() {
      void decideAfterClose();
    },
  };
  const driver: ModeDriver = mode === 'popup' ? popupMode(context) : mode === 'direct' ? directMode(context) : frameMode(context);

  function show(target: LinkTarget): void {
    if (closed) return;
    const url = typeof target === 'string' ? target : target?.url;
    sessionId = (target as { sessionId?: string } | null)?.sessionId || sessionId;
    const parsed = httpUrl(url);
    if (!parsed) return fail('invalid_url', 'The link URL is not an absolute http(s) URL.');
    // Its origin is the only one messages are accepted from.
    hostedOrigin = parsed.origin;
    if (!messagesBack) return driver.navigate(url!);
    // Frame and popup modes tell the hosted page which origin opened it, so a link created for another origin
    // answers at once with a coded error (505, `origin_mismatch`) instead of a frame the browser silently refuses.
    parsed.searchParams.set(OPENER_ORIGIN_PARAM, window.location.origin);
    // The widget needs the max-pack add-on: the page and the service hold it to that (EMBED_MODE_PARAM).
    parsed.searchParams.set(EMBED_MODE_PARAM, mode);
    driver.navigate(parsed.href);
  }

  function handleMessage(event: MessageEvent): void {
    // Exact origin (none before the URL is known), our own window, then the schema; anything else is someone else's
    // message. The run stops listening when it ends.
    if (event.origin !== hostedOrigin) return;
    const source = driver.source();
    if (source === null || event.source !== source) return;
    const message = parseInboundMessage(event.data);
    if (!message) return;
    // A message about another session (a stale page in our window) is not ours either.
    if (sessionId !== null && message.sessionId !== sessionId) return;
    sessionId = message.sessionId;

    switch (message.event) {
      case 'connect:ready':
        if (isReady) return;
        isReady = true;
        driver.ready?.();
        emit('ready', { sessionId });
        return;
      case 'connect:success':
        succeed(message.platform, 'message');
        if (options.closeOnSuccess !== false) finish();
        return;
      case 'connect:error': {
        // Each attempt reports its own outcome once, so a second identical error is a second attempt.
        const { platform, code, reason } = message;
        // The page says why it will not link here: stop waiting for its `connect:ready` and show what it says.
        if (reason === ORIGIN_MISMATCH_REASON) driver.ready?.();
        emit('error', { sessionId, ...(platform && { platform }), code, reason: reason ?? null, message: message.message });
        return;
      }
      case 'connect:resize':
        return driver.resize?.(message.height);
      case 'connect:disconnected':
        // A success of this run for that network no longer holds: linking it again is reported again.
        linked.delete(message.platform);
        emit('disconnect', { sessionId, platform: message.platform });
        return;
      case 'connect:cancelled': {
        const { platform, reason } = message;
        // The user closing the hosted page (Done, Escape) after a success is a plain close, as with our own close.
        if (!platform && (reason === 'close_button' || reason === 'escape')) return cancel(reason);
        emit('cancel', { sessionId, ...(platform && { platform }), reason });
        // A cancel naming a network (denied, its window closed) ends that attempt only; the user may try again or
        // link another. A cancel without one (expired, revoked) ends the link.
        if (!platform) finish();
        return;
      }
    }
  }

  return {
    handle: {
      close: () => finish(),
      get sessionId() {
        return sessionId;
      },
      get closed() {
        return closed;
      },
      done,
    },
    start() {
      if (!driver.begin()) return;
      window.addEventListener('message', handleMessage);
      const { url, getUrl } = options;
      if (url !== undefined) {
        show(url);
      } else if (getUrl) {
        getUrl().then(show, (error: unknown) => fail('url_failed', error instanceof Error ? error.message : String(error)));
      } else {
        fail('invalid_url', 'open() needs `url` or `getUrl`.');
      }
    },
    supersede: () => cancel('superseded'),
  };
}
