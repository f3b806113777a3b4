/**
 * Test helpers: the stand-in hosted page lives on the other loopback name, so it is a different origin.
 */
import { oneEvent } from '@open-wc/testing';
import { MESSAGE_SOURCE, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import type { LinkMessage } from '@social-link-kit/protocol/messages.js';
import type { SocialLinkErrorEvent } from '../../src/widget/events/social-link-error.js';
import type { SocialLinkDialog } from '../../src/widget/social-link-dialog.js';

export const HOSTED_ORIGIN = `http://${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}`;
export const SESSION_ID = 'sess_1';

/** URL of the stand-in hosted page; `auto` steps run on load (see fixtures/hosted.html). */
export function hostedUrl(auto: string[] = [], sessionId = SESSION_ID, origin = HOSTED_ORIGIN): string {
  const query = new URLSearchParams({ origin: location.origin, session: sessionId, auto: auto.join(',') });
  return `${origin}/test/widget/fixtures/hosted.html?${query}`;
}

/** A valid protocol message. */
export function message(event: LinkMessage['event'], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId: SESSION_ID, event, ...extra };
}

/** The code of the sentinel error: no real outcome uses it. */
export const SENTINEL_CODE = 999;

/**
 * Posts a valid `connect:error` from `win` (the widget's own hosted page) and waits for its event. Messages from
 * one window arrive in order, so everything `win` posted before has been handled (or ignored) by then.
 */
export async function sentinelFrom(win: Window): Promise<SocialLinkErrorEvent> {
  postFrom(win, message('connect:error', { code: SENTINEL_CODE, message: 'sentinel' }));
  for (;;) {
    const event = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    if (event.detail.code === SENTINEL_CODE) return event;
  }
}

/**
 * Resolves once this window has received `count` messages whose data matches. Call it after `open()`: listeners
 * run in the order they were added, so the widget has handled each of those messages by the time this resolves.
 */
export function received(match: (data: Record<string, unknown>) => boolean, count = 1): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    window.addEventListener('message', function onMessage(event: MessageEvent) {
      if (typeof event.data !== 'object' || event.data === null || !match(event.data as Record<string, unknown>)) return;
      if (++seen < count) return;
      window.removeEventListener('message', onMessage);
      resolve();
    });
  });
}

/**
 * Resolves after a timer of `ms` queued now. Timers of one window with the same or a shorter delay run in the order
 * they were queued (HTML timer ordering), so a widget timer of at most `ms` queued earlier has run by then: this
 * proves that timer fired nothing without guessing how long is long enough.
 */
export const afterTimersUpTo = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks a stand-in page to post `data` to the widget's window. */
export function postFrom(win: Window, data: unknown): void {
  win.postMessage({ cmd: 'post', data }, HOSTED_ORIGIN);
}

export function openDialogs(): SocialLinkDialog[] {
  return [...document.querySelectorAll('social-link-dialog')];
}

export function openDialog(): SocialLinkDialog {
  const dialog = document.querySelector('social-link-dialog');
  if (!dialog) throw new Error('no dialog open');
  return dialog;
}

export function frameOf(dialog = openDialog()): HTMLIFrameElement | null {
  return dialog.shadowRoot?.querySelector('iframe') ?? null;
}

export function allFrames(): HTMLIFrameElement[] {
  return openDialogs().flatMap((dialog) => [...(dialog.shadowRoot?.querySelectorAll('iframe') ?? [])]);
}

/** Records every event of the given names on `target`. */
export function recordEvents(target: EventTarget, names: string[]): Event[] {
  const seen: Event[] = [];
  for (const name of names) target.addEventListener(name, (event) => seen.push(event));
  return seen;
}

export const ALL_EVENTS = ['social-link-ready', 'social-link-success', 'social-link-error', 'social-link-cancel'];

/** Polls until `check` is true; for cross-process effects with no event to await. */
export async function until(check: () => boolean, timeout = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Records windows opened through window.open while still opening them for real. */
export function recordPopups(): { windows: (Window | null)[]; calls: unknown[][]; restore(): void } {
  const original = window.open;
  const windows: (Window | null)[] = [];
  const calls: unknown[][] = [];
  window.open = (...args: Parameters<typeof window.open>) => {
    calls.push(args);
    const win = original.apply(window, args);
    windows.push(win);
    return win;
  };
  return {
    windows,
    calls,
    restore() {
      window.open = original;
      for (const win of windows) if (win && !win.closed) win.close();
    },
  };
}
