export interface SocialLinkReadyDetail {
  /** Link session id, as announced by the hosted page. */
  readonly sessionId: string;
}

/** The hosted page has loaded the session and shows the linking UI. Not an outcome. */
export class SocialLinkReadyEvent extends Event {
  static readonly eventName = 'social-link-ready';
  readonly detail: SocialLinkReadyDetail;

  constructor(detail: SocialLinkReadyDetail) {
    super(SocialLinkReadyEvent.eventName, { bubbles: true, composed: true });
    this.detail = detail;
  }
}
