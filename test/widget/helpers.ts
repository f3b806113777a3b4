/**
 * Test helpers: the stand-in hosted page lives on the other loopback name, so it is a different origin.
 */
import type { LinkMessage } from '../../src/protocol/messages.js';
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
  return { source: 'social-link-kit', version: 1, sessionId: SESSION_ID, event, ...extra };
}

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

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` is true; for cross-process effects with no event to await. */
export async function until(check: () => boolean, timeout = 3000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeout) throw new Error('timed out');
    await sleep(20);
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
