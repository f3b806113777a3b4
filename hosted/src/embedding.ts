/**
 * Frame mode needs the max-pack add-on (spec 5.3, 5.7): without it the page shows no linking UI inside a frame
 * and tells the integrator once, with a coded `connect:error` (104, reason `max_pack_required`), instead of
 * leaving the widget to time out. Popups and direct links are not affected.
 */
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import type { LinkState } from './link-state.js';

export const MAX_PACK_REQUIRED = 'max_pack_required';

export function refusedInFrame(link: LinkState, view: SessionView): boolean {
  if (link.mode !== 'frame' || view.embeddable !== false) return false;
  if (!link.embeddingRefusalReported && link.messenger) {
    link.embeddingRefusalReported = true;
    link.messenger.error(ErrorCode.planRequired, 'Embedding the linking page needs the max-pack add-on.', undefined, MAX_PACK_REQUIRED);
  }
  return true;
}
