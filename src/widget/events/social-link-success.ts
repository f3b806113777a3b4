import type { Network } from '../../protocol/networks.js';

export interface SocialLinkSuccessDetail {
  /** Link session id; `null` only when the session was never announced (see docs/widget.md). */
  readonly sessionId: string | null;
  /** The network whose account was stored. */
  readonly platform: Network;
  /** `message` when the hosted page posted it, `status` when the widget learned it from `checkStatus`. */
  readonly via: 'message' | 'status';
}

/** An account was linked. Fired once per network per `open()`. */
export class SocialLinkSuccessEvent extends Event {
  static readonly eventName = 'social-link-success';
  readonly detail: SocialLinkSuccessDetail;

  constructor(detail: SocialLinkSuccessDetail) {
    super(SocialLinkSuccessEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}
