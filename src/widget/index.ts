/**
 * @module
 * The widget without side effects: element classes, events, `open()`, texts. Import `./define.js` to register
 * the elements.
 */
export { open } from './open.js';
export { SocialLinkButton } from './social-link-button.js';
export { SocialLinkDialog } from './social-link-dialog.js';
export * from './events/events.js';
export { defaultTexts, type WidgetTexts } from './texts.js';
export { loadWidgetLocale } from './widget-locale.js';
export type {
  LinkEventDetail,
  LinkHandle,
  LinkMode,
  LinkStatus,
  LinkTarget,
  OpenOptions,
} from './link-options.js';
