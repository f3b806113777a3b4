import type { Network } from '../../protocol/networks.js';

export interface SocialLinkDisconnectDetail {
  readonly sessionId: string | null;
  /** The network whose account the user disconnected on the hosted page. */
  readonly platform: Network;
}

/** The user disconnected an account on the hosted page: refresh what your page shows. */
export class SocialLinkDisconnectEvent extends Event {
  static readonly eventName = 'social-link-disconnect';
  readonly detail: SocialLinkDisconnectDetail;

  constructor(detail: SocialLinkDisconnectDetail) {
    super(SocialLinkDisconnectEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}
