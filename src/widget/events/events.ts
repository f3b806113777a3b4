/**
 * @module
 * The widget's public DOM events. All bubble and are composed, so they cross the integrator's shadow roots.
 */
import type { SocialLinkCancelEvent } from './social-link-cancel.js';
import type { SocialLinkErrorEvent } from './social-link-error.js';
import type { SocialLinkReadyEvent } from './social-link-ready.js';
import type { SocialLinkSuccessEvent } from './social-link-success.js';
import type { SocialLinkDisconnectEvent } from './social-link-disconnect.js';

export { SocialLinkReadyEvent, type SocialLinkReadyDetail } from './social-link-ready.js';
export { SocialLinkSuccessEvent, type SocialLinkSuccessDetail } from './social-link-success.js';
export { SocialLinkErrorEvent, type SocialLinkErrorDetail, type WidgetErrorReason } from './social-link-error.js';
export { SocialLinkCancelEvent, type SocialLinkCancelDetail } from './social-link-cancel.js';
export { SocialLinkDisconnectEvent, type SocialLinkDisconnectDetail } from './social-link-disconnect.js';

declare global {
  interface GlobalEventHandlersEventMap {
    'social-link-ready': SocialLinkReadyEvent;
    'social-link-success': SocialLinkSuccessEvent;
    'social-link-error': SocialLinkErrorEvent;
    'social-link-cancel': SocialLinkCancelEvent;
    'social-link-disconnect': SocialLinkDisconnectEvent;
  }
}
