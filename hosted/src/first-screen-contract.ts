/**
 * What the service and the hosted page agree on for the first screen rendered into the page's HTML: the request
 * the service hands the server build of ./first-screen.ts (hosted/dist/server/first-screen.js, outside the served
 * assets/; loaded by server/src/linking/routes/hosted-page-build.ts), and the inline
 * notice that tells the page script a fresh link token is not usable. Types and constants only, so the service
 * can import this file without the page's code.
 */
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';

/** Inlined instead of a session view when the token in the address is unknown, expired or revoked (all alike). */
export const INVALID_LINK_NOTICE = { status: 'invalid' } as const;
export type InvalidLinkNotice = typeof INVALID_LINK_NOTICE;

interface FromRequest {
  /** The page is loaded into a frame (`Sec-Fetch-Dest: iframe`); else a window, popup or tab alike. */
  framed: boolean;
  /** The widget opened the page in its popup (`?embed=popup`): it needs max-pack as a frame does. */
  widgetPopup?: boolean;
  /** The request's `Accept-Language`, which the browser also gives the page as `navigator.languages`. */
  acceptLanguage: string;
}

export type FirstScreenRequest =
  | ({ screen: 'networks'; view: SessionView; userAgent: string } & FromRequest)
  | ({ screen: 'origin-mismatch' } & FromRequest)
  | ({ screen: 'invalid' } & FromRequest);

export interface FirstScreenModule {
  /** The `<main>` content for the request, or null when the page should keep its "Loading…" (another language). */
  renderFirstScreen(request: FirstScreenRequest): string | null;
  /** Equal for two requests whose renders are equal, so a render can be kept and served again. */
  firstScreenKey(request: FirstScreenRequest): string;
}
