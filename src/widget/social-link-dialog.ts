import { html, nothing } from 'lit/html.js';
import { SocialLinkCloseRequestEvent } from './events/social-link-close-request.js';
import { dialogStyles } from './social-link-dialog.styles.js';
import { defaultTexts, type WidgetTexts } from './texts.js';
import { WidgetElement, type PropertyOptions } from './widget-element.js';

/** Sandbox of the hosted page: its scripts, forms and own origin, and popups for OAuth that escape the sandbox. */
const FRAME_SANDBOX = 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox';

/**
 * @tagname social-link-dialog
 * @summary The frame-mode overlay: a labelled modal dialog holding the hosted linking page in an iframe.
 * Created by `open({ mode: 'frame' })`; you rarely use it directly.
 *
 * The native modal `<dialog>` makes the rest of the page inert (focus stays inside), and the frame mode returns
 * focus to the element that opened it.
 *
 * @event {{ reason: 'close_button' | 'escape' }} social-link-close-request - Internal, neither bubbles nor is composed: the user asks to close.
 *
 * @csspart dialog - The `<dialog>` box.
 * @csspart header - The bar with the title and the close button.
 * @csspart title - The dialog heading.
 * @csspart close-button - The close button.
 * @csspart body - The area holding the iframe.
 * @csspart frame - The iframe with the hosted page.
 * @csspart loading - The loading note shown until the hosted page is ready.
 * @csspart timeout - The notice shown when the hosted page does not answer in time.
 *
 * @cssproperty --social-link-dialog-width - Dialog width.
 * @cssproperty --social-link-dialog-height - Dialog height.
 * @cssproperty --social-link-dialog-radius - Dialog corner radius.
 * @cssproperty --social-link-dialog-background - Dialog background.
 * @cssproperty --social-link-dialog-color - Dialog text color.
 * @cssproperty --social-link-backdrop - Backdrop behind the dialog.
 * @cssproperty --social-link-font - Font family.
 * @cssproperty --social-link-focus-ring - Focus outline of the close button.
 */
export class SocialLinkDialog extends WidgetElement {
  static readonly tagName = 'social-link-dialog';
  static override styles = dialogStyles;
  static override properties: Record<string, PropertyOptions> = {
    src: { attribute: false },
    texts: { attribute: false },
    loading: { type: Boolean },
    timedOut: { type: Boolean, attribute: 'timed-out' },
  };

  /** URL of the hosted page; the iframe is created once this is set. */
  src: string | null = null;

  /** Texts shown in the dialog. */
  texts: WidgetTexts = defaultTexts;

  /** True until the hosted page has loaded or announced itself ready. */
  loading = true;

  /** The hosted page did not announce itself in time (set by frame mode); cleared if it answers late. */
  timedOut = false;

  /** The window of the hosted page, the only accepted message source in frame mode. */
  get frameWindow(): Window | null {
    return this.shadowRoot!.querySelector('iframe')?.contentWindow ?? null;
  }

  protected override firstUpdated(): void {
    // Only a connected element renders, so the dialog can be modal (the owner may have removed it meanwhile, e.g. a
    // bad URL fails inside open(), and then it never renders).
    this.shadowRoot!.querySelector('dialog')!.showModal();
  }

  override render() {
    // An attribute binding writes a boolean as `true` or `false`, the two values of aria-busy.
    const busy = this.loading && !this.timedOut;
    // The frame is shown at once, over the loading note: the hosted page covers the note with its first paint, which
    // comes well before its `load`. Only a page that never announced itself (timed out) stays hidden.
    return html`
      <dialog
        part="dialog"
        aria-labelledby="title"
        aria-busy=${busy}
        @cancel=${this.#handleClose}
        @close=${this.#handleClose}
      >
        <div part="header">
          <h2 part="title" id="title">${this.texts.dialogTitle}</h2>
          <button part="close-button" type="button" aria-label=${this.texts.close} @click=${this.#handleClose}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
        <div part="body">
          ${busy ? html`<div part="loading" role="status">${this.texts.loading}</div>` : nothing}
          ${this.timedOut ? html`<div part="timeout" role="alert">${this.texts.loadTimeout}</div>` : nothing}
          ${this.src
            ? html`<iframe
                part="frame"
                class=${this.timedOut ? 'loading' : ''}
                src=${this.src}
                title=${this.texts.frameTitle}
                sandbox=${FRAME_SANDBOX}
                referrerpolicy="no-referrer"
                @load=${this.#handleFrameLoad}
              ></iframe>`
            : nothing}
        </div>
      </dialog>
    `;
  }

  #handleFrameLoad() {
    this.loading = false;
  }

  /**
   * The close button, Escape (`cancel`: the dialog stays open and the owner decides, removing the whole element), or
   * the browser closed the dialog anyway (`close`: a second Escape without user activation is not cancelable).
   */
  #handleClose(event: Event) {
    if (event.type === 'cancel') event.preventDefault();
    if (this.isConnected) this.dispatchEvent(new SocialLinkCloseRequestEvent(event.type === 'click' ? 'close_button' : 'escape'));
  }
}
