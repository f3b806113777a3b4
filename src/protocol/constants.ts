/**
 * @module
 * Protocol constants with no zod behind them, so the hosted page and the widget can import them without
 * pulling the schema library into their bundles. The networks come from the catalogue (./networks/catalog.ts).
 */
export const MESSAGE_SOURCE = 'social-link-kit';
export const PROTOCOL_VERSION = 1;

/** Why a connection ended without an account. */
export const CANCEL_REASONS = ['close_button', 'escape', 'popup_closed', 'expired', 'revoked', 'superseded', 'denied'] as const;

export { NETWORKS, NETWORK_LABELS, type Network } from './networks/catalog.js';

/**
 * The id of the `<script type="application/json">` element in which the hosted page's HTML carries the
 * `SessionView` on a first load with the link token, so the page renders without calling `GET /api/link/session`.
 */
export const INLINE_SESSION_VIEW_ID = 'session-view';

/**
 * The query parameter in which the widget (frame and popup modes) tells the hosted page the origin it runs on.
 * When the link session names another origin, the page shows only an "opened from another site" notice and
 * reports `connect:error` with code 505 and reason `origin_mismatch` to that origin, instead of staying silent.
 */
export const OPENER_ORIGIN_PARAM = 'from';
export const ORIGIN_MISMATCH_REASON = 'origin_mismatch';

/**
 * The widget needs the max-pack add-on (spec 5.3, 5.7), in frame and popup modes alike. The widget tells the hosted
 * page how it shows it (`?embed=frame|popup`, beside `from`); the page's API calls carry that mode (or `frame` for
 * any frame) in the `X-Link-Embed` header, and the service refuses them without max-pack (403, code 104, reason
 * `max_pack_required`). A page opened without the widget sends no header: that is direct mode, which the spec allows.
 */
export const EMBED_MODE_PARAM = 'embed';
export const EMBED_MODE_HEADER = 'X-Link-Embed';
export const EMBED_MODES = ['frame', 'popup'] as const;
export type EmbedMode = (typeof EMBED_MODES)[number];
export const MAX_PACK_REQUIRED_REASON = 'max_pack_required';

/** What the page's HTML carries instead of the session view when the opener's origin is not the session's. */
export interface OriginMismatchNotice {
  status: 'origin_mismatch';
  sessionId: string;
  /** The origin the widget said it runs on: the only place the page's error message goes. */
  opener: string;
}

/** The event of the OAuth popup's report to the hosted page (see ./oauth-result.ts); the popup's script is not bundled. */
export const OAUTH_RESULT_EVENT = 'oauth:result';
