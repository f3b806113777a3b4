import { LINK_PAGE_POPUP, openCenteredPopup } from '../popup-window.js';
import type { LinkRunContext, ModeDriver } from './mode-driver.js';

/**
 * Popup mode: the window is opened synchronously inside the click, on about:blank, and sent to the hosted page
 * once the URL is known; Safari and others block `window.open` after an `await`. Never `noopener`: the hosted
 * page posts to `window.opener`, and Safari returns null with it.
 */
export function popupMode(run: LinkRunContext): ModeDriver {
  let popup: Window | null = null;
  let poll: ReturnType<typeof setInterval> | undefined;

  return {
    begin() {
      popup = openCenteredPopup(LINK_PAGE_POPUP);
      if (!popup) {
        run.fail('popup_blocked', run.texts.popupBlocked);
        return false;
      }
      const opened = popup;
      // After start() has called getUrl: writing into the new window costs tens of ms, which the session request
      // should not wait for.
      queueMicrotask(() => {
        try {
          // Same-origin about:blank: a loading note while the integrator's backend creates the session.
          opened.document.title = run.texts.loading;
          opened.document.body.textContent = run.texts.loading;
        } catch {
          // Some browsers give a cross-origin proxy already, or the window is gone; the note is cosmetic.
        }
      });
      poll = setInterval(() => {
        if (opened.closed) {
          clearInterval(poll);
          run.windowClosed();
        }
      }, run.options.pollMs ?? 300);
      return true;
    },
    navigate(url) {
      // replace(): the popup's Back button should not lead to the blank loading page.
      popup!.location.replace(url);
    },
    source: () => popup,
    teardown() {
      clearInterval(poll);
      if (popup && !popup.closed) popup.close();
      popup = null;
    },
  };
}
