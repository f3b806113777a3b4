import type { CancelReason } from '../../protocol/messages.js';
import type { Network } from '../../protocol/networks.js';

export interface SocialLinkCancelDetail {
  /** Link session id; `null` when the user left before the hosted page announced it. */
  readonly sessionId: string | null;
  readonly platform?: Network;
  readonly reason: CancelReason;
}

/** The user left without linking, or the link stopped being usable. */
export class SocialLinkCancelEvent extends Event {
  static readonly eventName = 'social-link-cancel';
  readonly detail: SocialLinkCancelDetail;

  constructor(detail: SocialLinkCancelDetail) {
    super(SocialLinkCancelEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}
