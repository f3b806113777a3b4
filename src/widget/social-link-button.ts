import { html } from 'lit/html.js';
import type { LinkHandle, LinkMode, LinkStatus, LinkTarget } from './link-options.js';
import { open } from './open.js';
import { buttonStyles } from './social-link-button.styles.js';
import { resolveTexts, type WidgetTexts } from './texts.js';
import { directionOf, widgetCatalogues, widgetLocale } from './widget-locale.js';
import { WidgetElement, type PropertyOptions } from './widget-element.js';

/**
 * @tagname social-link-button
 * @summary A button that opens the hosted linking page in a modal frame, a popup, or by navigating.
 *
 * @slot - The button label. Defaults to `texts.button`.
 *
 * @event {{ sessionId: string }} social-link-ready - The hosted page loaded the session.
 * @event {{ sessionId: string | null, platform: string, via: 'message' | 'status' }} social-link-success - An account was linked.
 * @event {{ sessionId: string | null, platform?: string, code: number | null, reason: string | null, message: string }} social-link-error - A connection attempt failed, or the widget could not open the page (`popup_blocked`, `url_failed`, `invalid_url`).
 * @event {{ sessionId: string | null, platform?: string, reason: string }} social-link-cancel - The user left without linking, or the link ended.
 *
 * @csspart button - The `<button>` (or `<a>` in direct mode with a `url`).
 * @csspart status - Where the widget's own problems (popup blocked) are announced.
 *
 * @cssproperty --social-link-accent - Brand colour: the button background and the dialog's accents.
 * @cssproperty --social-link-button-background - Button background.
 * @cssproperty --social-link-button-hover-background - Button background on hover.
 * @cssproperty --social-link-button-color - Button text color.
 * @cssproperty --social-link-button-radius - Button corner radius.
 * @cssproperty --social-link-button-padding - Button padding.
 * @cssproperty --social-link-button-border - Button border.
 * @cssproperty --social-link-status-color - Color of the status text.
 * @cssproperty --social-link-font - Font family (also used by the dialog).
 * @cssproperty --social-link-focus-ring - Focus outline.
 */
export class SocialLinkButton extends WidgetElement {
  static readonly tagName = 'social-link-button';
  static override styles = buttonStyles;
  static override properties: Record<string, PropertyOptions> = {
    url: {},
    mode: {},
    keepOpen: { type: Boolean, attribute: 'keep-open' },
    getUrl: { attribute: false },
    checkStatus: { attribute: false },
    locale: {},
    texts: { attribute: false },
    timing: { attribute: false },
  };

  /** The link URL from the create response. Prefer `getUrl` so the short-lived session is created at click time. */
  url: string | null = null;

  /** `frame` (modal overlay, default), `popup`, or `direct` (navigate; renders a link when `url` is set). */
  mode: LinkMode = 'frame';

  /** Keep the overlay or popup open after a success, so the user can link several networks. */
  keepOpen = false;

  /** Creates the session at click time and resolves to its URL (or `{url, sessionId}`). */
  getUrl: (() => Promise<LinkTarget>) | null = null;

  /** Asks your backend for the session state when a popup closes without a message. See `open()`. */
  checkStatus: ((sessionId: string | null) => Promise<LinkStatus>) | null = null;

  /** The widget's language (`en`, `es`, `fr`, `de`, `pt-BR`, `ja`, `ar`); default the browser's. */
  locale: string | null = null;

  /** Replacement texts, over the locale's. */
  texts: Partial<WidgetTexts> = {};

  /** Extra options for `open()` that have no attribute (`closeGraceMs`, `pollMs`, `readyTimeoutMs`). */
  timing: { closeGraceMs?: number; pollMs?: number; readyTimeoutMs?: number } = {};

  // Rendered as aria-busy (an attribute binding writes a boolean as `true` or `false`).
  #busy = false;
  #statusText = '';
  /** The link this button opened, while it is open. */
  #handle: LinkHandle | undefined;
  /** The locale whose texts were last asked for, so a locale that fails to load is asked for once. */
  #requestedLocale: string | undefined;

  /** The locale's texts (English until they are loaded, which starts here) overlaid with `texts`. */
  #texts(): WidgetTexts {
    const locale = widgetLocale(this.locale);
    if (locale !== this.#requestedLocale) {
      this.#requestedLocale = locale;
      void widgetCatalogues.load(locale).then(() => this.requestUpdate());
    }
    return resolveTexts(this.texts, widgetCatalogues.get(locale));
  }

  /** Sets the button's busy state and status text, and renders them. */
  #show(busy: boolean, statusText = this.#statusText): void {
    this.#busy = busy;
    this.#statusText = statusText;
    this.requestUpdate();
  }

  disconnectedCallback(): void {
    // Never leave an overlay or popup behind an element that is gone.
    this.#handle?.close();
  }

  /** Opens the link, as a click does. Call it from a user gesture in popup mode. */
  open(): LinkHandle {
    this.#statusText = '';
    const texts = this.#texts();
    const handle = open({
      url: this.getUrl ? undefined : (this.url ?? undefined),
      getUrl: this.getUrl ?? undefined,
      checkStatus: this.checkStatus ?? undefined,
      ...this.timing,
      mode: this.mode,
      locale: this.locale ?? undefined,
      closeOnSuccess: !this.keepOpen,
      texts,
      eventTarget: this,
      onError: ({ code, reason }) => {
        // The hosted page's errors and the dialog's own timeout notice are shown where the user is looking.
        if (code === null && reason !== 'load_timeout') {
          this.#show(this.#busy, reason === 'popup_blocked' ? texts.popupBlocked : texts.openFailed);
        }
      },
      onReady: () => this.#show(false),
    });
    this.#handle = handle;
    this.#show(!handle.closed && this.mode !== 'direct');
    void handle.done.then(() => {
      if (this.#handle === handle) {
        this.#handle = undefined;
        this.#show(false);
      }
    });
    return handle;
  }

  override render() {
    const texts = this.#texts();
    const locale = widgetLocale(this.locale);
    const label = html`<slot lang=${locale} dir=${directionOf(locale)}>${texts.button}</slot>`;
    const status = html`<span part="status" role="status">${this.#statusText}</span>`;
    if (this.mode === 'direct' && this.url && !this.getUrl) {
      // Direct mode with a known URL is just a link: works without script and with middle-click.
      return html`<a part="button" href=${this.url} referrerpolicy="no-referrer">${label}</a>${status}`;
    }
    return html`<button part="button" type="button" aria-busy=${this.#busy} @click=${this.open}>
        ${label}</button
      >${status}`;
  }
}
