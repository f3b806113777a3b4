/** Why the dialog asks to close. */
export type CloseRequestReason = 'close_button' | 'escape';

/**
 * Internal: `<social-link-dialog>` asks its owner (frame mode) to close. Neither bubbles nor is composed, so it
 * never reaches the integrator's page.
 */
export class SocialLinkCloseRequestEvent extends Event {
  static readonly eventName = 'social-link-close-request';
  readonly reason: CloseRequestReason;

  constructor(reason: CloseRequestReason) {
    super(SocialLinkCloseRequestEvent.eventName);
    this.reason = reason;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'social-link-close-request': SocialLinkCloseRequestEvent;
  }
}
