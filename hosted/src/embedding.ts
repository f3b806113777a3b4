/**
 * The widget needs the max-pack add-on (spec 5.3, 5.7), in a frame and in the widget's popup alike: without it the
 * page shows no linking UI and tells the integrator once, with a coded `connect:error` (104, reason
 * `max_pack_required`), instead of leaving the widget to wait. The service refuses the page's connect calls that
 * carry the embed mode as well (server/src/linking/embed-mode.ts); this screen is what the user sees. A page opened
 * without the widget (direct mode) is not affected.
 */
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import { MAX_PACK_REQUIRED_REASON } from '@social-link-kit/protocol/constants.js';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import type { LinkState } from './link-state.js';

export function refusedEmbedded(link: LinkState, view: SessionView): boolean {
  if (link.embed === null || view.embeddable !== false) return false;
  if (!link.embeddingRefusalReported && link.messenger) {
    link.embeddingRefusalReported = true;
    link.messenger.error(ErrorCode.planRequired, 'The linking widget needs the max-pack add-on.', undefined, MAX_PACK_REQUIRED_REASON);
  }
  return true;
}
