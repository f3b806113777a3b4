import type { Network } from '../../protocol/networks.js';

/** Errors the widget raises itself, before or around the hosted page. */
export type WidgetErrorReason = 'popup_blocked' | 'url_failed' | 'invalid_url' | 'load_timeout';

export interface SocialLinkErrorDetail {
  /** Link session id; `null` when the error happened before the session was known. */
  readonly sessionId: string | null;
  readonly platform?: Network;
  /** The spec's numeric code (e.g. 513) for errors from the hosted page; `null` for the widget's own errors. */
  readonly code: number | null;
  /** A `WidgetErrorReason` for the widget's own errors; the hosted page's optional reason otherwise. */
  readonly reason: WidgetErrorReason | string | null;
  /** Human-readable, for logs; show your own text to users. */
  readonly message: string;
}

/**
 * A connection attempt failed. Errors from the hosted page leave it open so the user can retry; the widget's own
 * errors (`popup_blocked`, `url_failed`, `invalid_url`) end the link. `load_timeout` (frame mode: the hosted page
 * did not announce itself in time) leaves the dialog open with a notice, and the link goes on if the page
 * answers late.
 */
export class SocialLinkErrorEvent extends Event {
  static readonly eventName = 'social-link-error';
  readonly detail: SocialLinkErrorDetail;

  constructor(detail: SocialLinkErrorDetail) {
    super(SocialLinkErrorEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}
