import { SocialLinkCloseRequestEvent } from '../events/social-link-close-request.js';
import { SocialLinkDialog } from '../social-link-dialog.js';
import { directionOf } from '../widget-locale.js';
import type { LinkRunContext, ModeDriver } from './mode-driver.js';

const DEFAULT_READY_TIMEOUT_MS = 15_000;
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The integrator's `readyTimeoutMs` when usable: browsers fire 0, negative or over-2^31 delays at once. */
function readyTimeout(requested: number | undefined): number {
  return Number.isFinite(requested) && requested! > 0 ? Math.min(requested!, MAX_TIMER_MS) : DEFAULT_READY_TIMEOUT_MS;
}

/** The element that had focus, looking through open shadow roots, so focus can return there. */
function deepActiveElement(): HTMLElement | null {
  let active = document.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active instanceof HTMLElement ? active : null;
}

/**
 * Frame mode: a modal `<social-link-dialog>` appended to `document.body`, with the hosted page in an iframe.
 * The dialog is removed on every ending, so no iframe is ever left behind.
 */
export function frameMode(run: LinkRunContext): ModeDriver {
  // Made by begin(), the link run's first call; after teardown() the run calls nothing more.
  let dialog!: SocialLinkDialog;
  let returnFocus: HTMLElement | null = null;
  // A frame blocked by frame-ancestors, or a page that never loads, still fires `load`: only `connect:ready`
  // proves the hosted page is there.
  let readyTimer: ReturnType<typeof setTimeout> | undefined;

  const handleCloseRequest = (event: SocialLinkCloseRequestEvent) => run.cancel(event.reason);

  return {
    begin() {
      returnFocus = deepActiveElement();
      SocialLinkDialog.define();
      dialog = document.createElement(SocialLinkDialog.tagName) as SocialLinkDialog;
      dialog.texts = run.texts;
      dialog.lang = run.locale;
      dialog.dir = directionOf(run.locale);
      dialog.addEventListener(SocialLinkCloseRequestEvent.eventName, handleCloseRequest);
      document.body.append(dialog);
      return true;
    },
    navigate(url) {
      dialog.src = url;
      readyTimer = setTimeout(() => {
        dialog.timedOut = true;
        run.loadTimedOut();
      }, readyTimeout(run.options.readyTimeoutMs));
    },
    source: () => dialog.frameWindow,
    ready() {
      clearTimeout(readyTimer);
      dialog.loading = false;
      dialog.timedOut = false;
    },
    resize(height) {
      dialog.style.setProperty('--social-link-content-height', `${height}px`);
    },
    teardown() {
      clearTimeout(readyTimer);
      // The removed dialog asks nothing more (it only asks while connected), so its listener may stay.
      dialog.remove();
      if (returnFocus?.isConnected) returnFocus.focus();
    },
  };
}
