/**
 * The session view the service put into this page's HTML on its first load (a `<script type="application/json">`,
 * never run), so the first screen needs no API call. Read once and removed: later reads go to the API. It came in
 * the same response as the page itself, so it is trusted as the page is; only its shape is checked here, which
 * keeps zod (schemas.ts) off the first render. When the widget that opened the page runs on an origin the session
 * does not name, the service puts an `OriginMismatchNotice` there instead of the view; when the token in the address
 * is unknown, expired or revoked, an `InvalidLinkNotice`.
 */
import { INLINE_SESSION_VIEW_ID, type OriginMismatchNotice } from '@social-link-kit/protocol/constants.js';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import { INVALID_LINK_NOTICE, type InvalidLinkNotice } from './first-screen-contract.js';

export function takeInlineSessionView(): SessionView | OriginMismatchNotice | InvalidLinkNotice | null {
  const element = document.getElementById(INLINE_SESSION_VIEW_ID);
  if (!element) return null;
  element.remove();
  try {
    const view = JSON.parse(element.textContent ?? '') as Partial<SessionView> | Partial<OriginMismatchNotice> | Partial<InvalidLinkNotice> | null;
    if (view?.status === INVALID_LINK_NOTICE.status) return INVALID_LINK_NOTICE;
    if (view?.status === 'origin_mismatch') {
      return typeof view.sessionId === 'string' && typeof view.opener === 'string' ? (view as OriginMismatchNotice) : null;
    }
    const usable =
      view?.status === 'success' &&
      typeof view.sessionId === 'string' &&
      typeof view.title === 'string' &&
      typeof view.expiresAt === 'string' &&
      typeof view.serverTime === 'string' &&
      Array.isArray(view.networks) &&
      Array.isArray(view.completedNetworks);
    return usable ? (view as SessionView) : null;
  } catch {
    return null;
  }
}
