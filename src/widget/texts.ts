/**
 * @module
 * Every text the widget shows or announces, in English. The widget speaks en, es, fr, de, pt-BR, ja and ar
 * (../i18n/widget/, chosen by its `locale`, else the browser's language); an integrator may still replace any
 * text with a partial object.
 */

export interface WidgetTexts {
  /** Label of `<social-link-button>` when it has no slotted content. */
  button: string;
  /** Accessible name of the frame-mode dialog (shown as its heading). */
  dialogTitle: string;
  /** Accessible name of the dialog's close button. */
  close: string;
  /** Shown while the link URL is created and while the hosted page loads. */
  loading: string;
  /** `title` of the iframe that holds the hosted page. */
  frameTitle: string;
  /** Announced when the browser blocked the popup. */
  popupBlocked: string;
  /** Announced when the link URL could not be created or is not a usable URL. */
  openFailed: string;
  /** Shown in the frame-mode dialog when the hosted page does not answer in time. */
  loadTimeout: string;
}

export const defaultTexts: WidgetTexts = {
  button: 'Connect social accounts',
  dialogTitle: 'Connect your social accounts',
  close: 'Close',
  loading: 'Loading…',
  frameTitle: 'Account linking',
  popupBlocked: 'Your browser blocked the linking window. Allow popups for this site and try again.',
  openFailed: 'The linking page could not be opened. Please try again.',
  loadTimeout: 'The linking page is not responding. Check your connection, close this window and try again.',
};

/** The locale's texts (English until they are loaded) overlaid with the integrator's replacements. */
export function resolveTexts(texts: Partial<WidgetTexts> | undefined, localeTexts: WidgetTexts = defaultTexts): WidgetTexts {
  return { ...localeTexts, ...texts };
}
