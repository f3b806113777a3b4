import type { CancelReason } from '../../protocol/messages.js';
import type { WidgetErrorReason } from '../events/social-link-error.js';
import type { OpenOptions } from '../link-options.js';
import type { Locale } from '../../i18n/locales.js';
import type { WidgetTexts } from '../texts.js';

/** What a mode may ask of the link run that owns it. */
export interface LinkRunContext {
  readonly options: OpenOptions;
  readonly texts: WidgetTexts;
  readonly locale: Locale;
  /** The user closed the UI (close button, Escape). */
  cancel(reason: CancelReason): void;
  /** The widget itself failed (popup blocked, bad URL); ends the link. */
  fail(reason: WidgetErrorReason, message: string): void;
  /** Frame mode: the hosted page did not announce itself in time; the dialog stays open with a notice. */
  loadTimedOut(): void;
  /** The popup window reads as closed. */
  windowClosed(): void;
  /** The link ended with no event (direct mode navigated away). */
  finish(): void;
}

/** One way of showing the hosted page: frame, popup or direct. */
export interface ModeDriver {
  /** Runs synchronously inside `open()` (popup opens its window here). Returns false when it already failed. */
  begin(): boolean;
  /** Shows the hosted page at `url` (already checked to be http(s)). */
  navigate(url: string): void;
  /** The only window whose messages are accepted; null when there is none (yet). */
  source(): MessageEventSource | null;
  /** The hosted page announced `connect:ready` (frame mode stops waiting for it). */
  ready?(): void;
  /** Frame mode: the hosted page's content height, which the dialog fits. */
  resize?(height: number): void;
  /** Removes the UI, when there is one. Called exactly once. */
  teardown?(): void;
}
