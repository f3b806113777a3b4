/**
 * @module
 * The widget needs the max-pack add-on (spec 5.3, 5.7: "Widget needs the max-pack add-on"), in frame and popup modes
 * alike. The widget tells the hosted page how it shows it (`?embed=frame|popup`); the page's connect calls carry
 * that mode in `X-Link-Embed` (a frame always says `frame`), and without max-pack they are refused here with the
 * plan-gating error (403, code 104, reason `max_pack_required`), not only hidden behind the page's screen.
 * What cannot be enforced: a call without the header is direct mode (a page opened without the widget, which the
 * spec allows), so a page the integrator frames or opens by other means and that omits the header is not caught.
 * Browsers refuse the frame itself unless the session's `origin` allows it (frame-ancestors).
 */
import { ErrorCode } from '@social-link-kit/protocol';
import { EMBED_MODE_HEADER, EMBED_MODES, MAX_PACK_REQUIRED_REASON, type EmbedMode } from '@social-link-kit/protocol/constants.js';
import type { AppDeps } from '../app-deps.js';
import type { LinkSessionRecord } from '../core/db/storage-types.js';
import { ApiError } from '../core/errors.js';

const ACTION = 'link session';

/** The mode a call says the page is shown in; null when it says none (direct mode). 400 for another value. */
export function embedModeOf(header: string | undefined): EmbedMode | null {
  if (header === undefined) return null;
  if ((EMBED_MODES as readonly string[]).includes(header)) return header as EmbedMode;
  throw new ApiError(400, ErrorCode.badRequest, `"${EMBED_MODE_HEADER}" must be one of ${EMBED_MODES.join(', ')}.`, { action: ACTION, details: { validValues: EMBED_MODES } });
}

/** Throws 403 (104) when the call comes from the widget (frame or popup) and the session's account has no max-pack. */
export async function assertEmbeddingAllowed(deps: Pick<AppDeps, 'storage'>, session: LinkSessionRecord, header: string | undefined): Promise<void> {
  const embed = embedModeOf(header);
  if (embed === null) return;
  const account = await deps.storage.accounts.findAccount(session.accountId);
  if (account?.maxPack) return;
  throw new ApiError(403, ErrorCode.planRequired, `The linking widget (${embed} mode) needs the max-pack add-on. Open the link directly instead.`, {
    action: ACTION,
    details: { embed, reason: MAX_PACK_REQUIRED_REASON },
  });
}
