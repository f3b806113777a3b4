import { SocialLinkCloseRequestEvent } from '../events/social-link-close-request.js';
import { SocialLinkDialog } from '../social-link-dialog.js';
import type { LinkRunContext, ModeDriver } from './mode-driver.js';

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
  let dialog: SocialLinkDialog | null = null;
  let returnFocus: HTMLElement | null = null;

  const handleCloseRequest = (event: SocialLinkCloseRequestEvent) => run.cancel(event.reason);

  return {
    begin() {
      returnFocus = deepActiveElement();
      SocialLinkDialog.define();
      dialog = document.createElement(SocialLinkDialog.tagName) as SocialLinkDialog;
      dialog.texts = run.texts;
      dialog.addEventListener(SocialLinkCloseRequestEvent.eventName, handleCloseRequest);
      document.body.append(dialog);
      return true;
    },
    navigate(url) {
      if (dialog) dialog.src = url;
    },
    source: () => dialog?.frameWindow ?? null,
    ready() {
      if (dialog) dialog.loading = false;
    },
    teardown() {
      dialog?.removeEventListener(SocialLinkCloseRequestEvent.eventName, handleCloseRequest);
      dialog?.remove();
      dialog = null;
      if (returnFocus?.isConnected) returnFocus.focus();
      returnFocus = null;
    },
  };
}
