/**
 * @module
 * One `open()` from start to end: accepts messages only from the hosted page's window and origin, turns them into
 * DOM events and callbacks (each outcome once), and removes the UI on every ending.
 */
import { OPENER_ORIGIN_PARAM, ORIGIN_MISMATCH_REASON } from '../protocol/constants.js';
import type { CancelReason } from '../protocol/messages.js';
import type { Network } from '../protocol/networks.js';
import { originOf } from '../protocol/origin.js';
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
import type { Locale } from '../i18n/locales.js';
import { resolveTexts, type WidgetTexts } from './texts.js';
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

/** Each kind of event: its DOM event class and the integrator callback that hears it. */
const EMITTERS: {
  [K in EventKind]: {
    EventClass: new (detail: EventDetails[K]) => Event;
    callback: (options: OpenOptions) => ((detail: EventDetails[K]) => void) | undefined;
  };
} = {
  ready: { EventClass: SocialLinkReadyEvent, callback: (options) => options.onReady },
  success: { EventClass: SocialLinkSuccessEvent, callback: (options) => options.onSuccess },
  error: { EventClass: SocialLinkErrorEvent, callback: (options) => options.onError },
  cancel: { EventClass: SocialLinkCancelEvent, callback: (options) => options.onCancel },
  disconnect: { EventClass: SocialLinkDisconnectEvent, callback: (options) => options.onDisconnect },
};

/** Only http(s) URLs may be shown; their origin is the only origin messages are accepted from. */
function hostedOriginOf(url: string): string | null {
  const origin = originOf(url);
  return origin && /^https?:\/\//.test(origin) ? origin : null;
}

/**
 * Frame and popup modes tell the hosted page which origin opened it, so a link created for another origin answers
 * at once with a coded error (505, `origin_mismatch`) instead of a frame the browser silently refuses.
 */
function withOpenerOrigin(url: string): string {
  const target = new URL(url);
  target.searchParams.set(OPENER_ORIGIN_PARAM, window.location.origin);
  return target.href;
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

export class LinkRun implements LinkRunContext {
  readonly options: OpenOptions;
  readonly locale: Locale;
  readonly texts: WidgetTexts;
  readonly done: Promise<void>;
  readonly handle: LinkHandle;
  sessionId: string | null = null;
  closed = false;

  private readonly driver: ModeDriver;
  private readonly messagesBack: boolean;
  private hostedOrigin: string | null = null;
  private isReady = false;
  private readonly linked = new Set<Network>();
  private resolveDone!: () => void;

  constructor(options: OpenOptions) {
    this.options = options;
    this.locale = widgetLocale(options.locale);
    this.texts = resolveTexts(options.texts, widgetCatalogues.get(this.locale));
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    const mode = options.mode ?? 'frame';
    this.messagesBack = mode !== 'direct';
    this.driver = mode === 'popup' ? popupMode(this) : mode === 'direct' ? directMode(this) : frameMode(this);
    const run = this;
    this.handle = {
      close: () => run.finish(),
      get sessionId() {
        return run.sessionId;
      },
      get closed() {
        return run.closed;
      },
      done: this.done,
    };
  }

  /**
   * Synchronous up to the first `await`, so the popup opens inside the user's click. `getUrl` is called right
   * after the window or dialog exists and before anything is drawn in it (the modes defer their loading notes), so
   * the integrator's backend starts creating the session as early as it can; a blocked popup creates none.
   */
  start(): void {
    if (!this.driver.begin()) return;
    window.addEventListener('message', this.handleMessage);
    const { url, getUrl } = this.options;
    if (url !== undefined) {
      this.show(url);
    } else if (getUrl) {
      getUrl().then(
        (resolved) => this.show(resolved),
        (error: unknown) => this.fail('url_failed', error instanceof Error ? error.message : String(error)),
      );
    } else {
      this.fail('invalid_url', 'open() needs `url` or `getUrl`.');
    }
  }

  private show(target: LinkTarget): void {
    if (this.closed) return;
    const url = typeof target === 'string' ? target : target?.url;
    if (typeof target === 'object' && target?.sessionId) this.sessionId = target.sessionId;
    const origin = typeof url === 'string' ? hostedOriginOf(url) : null;
    if (!origin || typeof url !== 'string') {
      this.fail('invalid_url', 'The link URL is not an absolute http(s) URL.');
      return;
    }
    this.hostedOrigin = origin;
    this.driver.navigate(this.messagesBack ? withOpenerOrigin(url) : url);
  }

  private readonly handleMessage = (event: MessageEvent): void => {
    // Exact origin, our own window, then the schema; anything else is someone else's message.
    if (this.closed || this.hostedOrigin === null || event.origin !== this.hostedOrigin) return;
    const source = this.driver.source();
    if (source === null || event.source !== source) return;
    const message = parseInboundMessage(event.data);
    if (!message) return;
    // A message about another session (a stale page in our window) is not ours either.
    if (this.sessionId !== null && message.sessionId !== this.sessionId) return;
    this.sessionId = message.sessionId;

    switch (message.event) {
      case 'connect:ready':
        if (this.isReady) return;
        this.isReady = true;
        this.driver.ready();
        this.emit('ready', { sessionId: message.sessionId });
        return;
      case 'connect:success':
        this.succeed(message.platform, 'message');
        if (this.options.closeOnSuccess !== false) this.finish();
        return;
      case 'connect:error': {
        // Each attempt reports its own outcome once, so a second identical error is a second attempt.
        const { sessionId, platform, code, message: text, reason } = message;
        // The page says why it will not link here: stop waiting for its `connect:ready` and show what it says.
        if (reason === ORIGIN_MISMATCH_REASON) this.driver.ready();
        this.emit('error', { sessionId, ...(platform && { platform }), code, reason: reason ?? null, message: text });
        return;
      }
      case 'connect:resize':
        return this.driver.resize?.(message.height);
      case 'connect:disconnected':
        // A success of this run for that network no longer holds: linking it again is reported again.
        this.linked.delete(message.platform);
        this.emit('disconnect', { sessionId: message.sessionId, platform: message.platform });
        return;
      case 'connect:cancelled': {
        const { sessionId, platform, reason } = message;
        // The user closing the hosted page (Done, Escape) after a success is a plain close, as with our own close.
        if (!platform && (reason === 'close_button' || reason === 'escape')) return this.cancel(reason);
        this.emit('cancel', { sessionId, ...(platform && { platform }), reason });
        // A cancel naming a network (denied, its window closed) ends that attempt only; the user may try again or
        // link another. A cancel without one (expired, revoked) ends the link.
        if (!platform) this.finish();
        return;
      }
    }
  };

  /** The user closed the UI. After a success this is just a close, not a cancel. */
  cancel(reason: CancelReason): void {
    if (this.closed) return;
    if (this.linked.size === 0) this.emit('cancel', { sessionId: this.sessionId, reason });
    this.finish();
  }

  fail(reason: WidgetErrorReason, message: string): void {
    if (this.closed) return;
    this.emit('error', { sessionId: this.sessionId, code: null, reason, message });
    this.finish();
  }

  loadTimedOut(): void {
    if (this.closed) return;
    this.emit('error', { sessionId: this.sessionId, code: null, reason: 'load_timeout', message: 'The linking page did not announce itself in time.' });
  }

  /**
   * The popup reads as closed. A message may still be in flight, and COOP can make a live popup read as closed,
   * so wait a grace period, then ask the integrator's backend (the source of truth) before calling it cancelled.
   */
  windowClosed(): void {
    void this.decideAfterClose();
  }

  private async decideAfterClose(): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.options.closeGraceMs ?? DEFAULT_CLOSE_GRACE_MS));
    if (this.closed) return;
    if (this.linked.size > 0) return this.finish();
    let status: LinkStatus | null = null;
    if (this.options.checkStatus) {
      try {
        status = await this.options.checkStatus(this.sessionId);
      } catch {
        status = null; // Unknown: report what we saw, a closed popup.
      }
    }
    if (this.closed) return;
    const completed = status?.completedNetworks ?? [];
    if (completed.length > 0) {
      for (const platform of completed) this.succeed(platform, 'status');
      return this.finish();
    }
    const reason = status?.state === 'expired' || status?.state === 'revoked' ? status.state : 'popup_closed';
    this.cancel(reason);
  }

  /** Another `open()` replaced this one. */
  supersede(): void {
    this.cancel('superseded');
  }

  finish(): void {
    if (this.closed) return;
    this.closed = true;
    window.removeEventListener('message', this.handleMessage);
    this.driver.teardown();
    this.resolveDone();
  }

  private succeed(platform: Network, via: SocialLinkSuccessDetail['via']): void {
    if (this.linked.has(platform)) return;
    this.linked.add(platform);
    this.emit('success', { sessionId: this.sessionId, platform, via });
  }

  /** Where DOM events are dispatched: the button that opened the link, or `document`. */
  private get eventTarget(): EventTarget {
    return this.options.eventTarget ?? document;
  }

  /** Dispatches the DOM event, then calls the matching callback and `onEvent`. */
  private emit<K extends EventKind>(type: K, detail: EventDetails[K]): void {
    const { EventClass, callback } = EMITTERS[type];
    this.eventTarget.dispatchEvent(new EventClass(detail));
    invoke(callback(this.options), detail);
    invoke(this.options.onEvent, { type, ...detail } as LinkEventDetail);
  }
}
