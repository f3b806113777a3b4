/**
 * @module
 * Options and handle of `open()`, shared by the modes and `<social-link-button>`.
 */
import type { LinkSession } from '../protocol/resources.js';
import type { SocialLinkCancelDetail } from './events/social-link-cancel.js';
import type { SocialLinkDisconnectDetail } from './events/social-link-disconnect.js';
import type { SocialLinkErrorDetail } from './events/social-link-error.js';
import type { SocialLinkReadyDetail } from './events/social-link-ready.js';
import type { SocialLinkSuccessDetail } from './events/social-link-success.js';
import type { WidgetTexts } from './texts.js';

/** Where the hosted linking page is shown. */
export type LinkMode = 'frame' | 'popup' | 'direct';

/** What `getUrl` may resolve to: the `url` of the create response, or the pair `{url, sessionId}`. */
export type LinkTarget = string | { url: string; sessionId?: string };

/**
 * The part of `GET /api/profiles/link-sessions/{sessionId}` the widget needs. Your backend reads it with the API
 * key (the browser must never hold that key) and returns it to `checkStatus`.
 */
export type LinkStatus = Pick<LinkSession, 'state' | 'completedNetworks'>;

/** Any of the outcome/progress events, for `onEvent`. */
export type LinkEventDetail =
  | ({ type: 'ready' } & SocialLinkReadyDetail)
  | ({ type: 'success' } & SocialLinkSuccessDetail)
  | ({ type: 'error' } & SocialLinkErrorDetail)
  | ({ type: 'cancel' } & SocialLinkCancelDetail)
  | ({ type: 'disconnect' } & SocialLinkDisconnectDetail);

export interface OpenOptions {
  /** The link URL from the create response. Give this or `getUrl`. */
  url?: string;
  /**
   * Creates the session at click time (your backend calls `POST /api/profiles/link-sessions`). The popup is opened
   * before this is called, so popup blockers stay quiet.
   */
  getUrl?: () => Promise<LinkTarget>;
  /** Default `frame`. */
  mode?: LinkMode;
  /**
   * Asks your backend for the session state when a popup closes without a message (cut opener, COOP, the user
   * closed it after linking). Without it, a closed popup is reported as cancelled (`popup_closed`).
   */
  checkStatus?: (sessionId: string | null) => Promise<LinkStatus>;
  /** Close the overlay or popup after the first success. Default true. */
  closeOnSuccess?: boolean;
  /** How long a closed popup may still deliver a message before the widget decides, in ms. Default 1000. */
  closeGraceMs?: number;
  /**
   * Frame mode: how long the hosted page may take to announce itself before the dialog says it is not responding
   * and `social-link-error` fires with reason `load_timeout`, in ms. Default 15000.
   */
  readyTimeoutMs?: number;
  /** How often the popup's `closed` flag is polled, in ms. Default 300. */
  pollMs?: number;
  /**
   * The widget's language (`en`, `es`, `fr`, `de`, `pt-BR`, `ja`, `ar`); default the browser's. Its texts must be
   * loaded (`loadWidgetLocale`, or a `<social-link-button>` on the page) for `open()` to use them; until then
   * it speaks English. The hosted page follows the session's `locale`, else the browser's language.
   */
  locale?: string;
  /** Replacement texts, over the locale's. */
  texts?: Partial<WidgetTexts>;
  /** Where DOM events are dispatched. Default `document`. `<social-link-button>` passes itself. */
  eventTarget?: EventTarget;
  onReady?: (detail: SocialLinkReadyDetail) => void;
  onSuccess?: (detail: SocialLinkSuccessDetail) => void;
  onError?: (detail: SocialLinkErrorDetail) => void;
  onCancel?: (detail: SocialLinkCancelDetail) => void;
  /** The user disconnected an account on the hosted page. */
  onDisconnect?: (detail: SocialLinkDisconnectDetail) => void;
  /** Every event above, in order, tagged with `type`. */
  onEvent?: (event: LinkEventDetail) => void;
}

export interface LinkHandle {
  /** Removes the overlay or closes the popup. Fires no event: the caller already knows. */
  close(): void;
  /** The session id once known (from `getUrl` or the hosted page's `connect:ready`). */
  readonly sessionId: string | null;
  /** True once the link ended (outcome, close or superseded). */
  readonly closed: boolean;
  /** Resolves when the link ends, for whatever reason. */
  readonly done: Promise<void>;
}
