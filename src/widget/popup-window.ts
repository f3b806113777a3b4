/**
 * @module
 * The one place that sizes and centres a popup, shared by the widget's popup mode (the hosted page) and the hosted
 * page's sign-in windows. The window opens on about:blank, synchronously inside the click (popup blockers refuse
 * `window.open` after an `await`), and never with `noopener`: whatever loads in it reports to `window.opener`.
 */
export interface PopupSize {
  readonly width: number;
  readonly height: number;
}

/** The hosted linking page, opened by the widget. */
export const LINK_PAGE_POPUP: PopupSize = { width: 520, height: 720 };
/** A network's sign-in page, opened by the hosted page; wider, as providers' consent screens are. */
export const SIGN_IN_POPUP: PopupSize = { width: 560, height: 720 };

/** Opens an empty popup centred over this window. Null when the browser blocked it. */
export function openCenteredPopup({ width, height }: PopupSize): Window | null {
  const left = Math.max(0, (window.screenX ?? 0) + (window.outerWidth - width) / 2);
  const top = Math.max(0, (window.screenY ?? 0) + (window.outerHeight - height) / 2);
  return window.open('about:blank', '_blank', `popup,width=${width},height=${height},left=${Math.round(left)},top=${Math.round(top)}`);
}
