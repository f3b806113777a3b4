/**
 * `<slk-link-page>`: the hosted linking page. It owns the page's state (../link-state.ts), starts up (takes the
 * link credential, shows the session inlined in the HTML on a first load, else reads it from the API, tells the
 * integrator's page it is ready) and shows one screen element for the state it is in.
 */
import { LitElement, html } from 'lit';
import { ORIGIN_MISMATCH_REASON, type OriginMismatchNotice } from '@social-link-kit/protocol/constants.js';
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import { refusedEmbedded } from '../embedding.js';
import { fitFrameToContent } from '../frame-size.js';
import { takeInlineSessionView } from '../inline-view.js';
import { createMessenger } from '../integrator-messenger.js';
import { createLinkApi } from '../link-api.js';
import { forgetLinkCredential, rememberSessionId, takeLinkCredential } from '../link-credential.js';
import { LinkState } from '../link-state.js';
import { schemas } from '../schemas.js';
import { endLink, finish, loadView, noticeOutOfBandLinks, showView, tick } from '../session.js';
import { TAG } from './tag-names.js';

/** How often the page re-reads the session while idle, to see links and revocations made elsewhere. */
const REVALIDATE_MS = 5000;

export class LinkPage extends LitElement {
  static readonly tagName = TAG.linkPage;
  private readonly link = new LinkState(this);
  private readonly timers: number[] = [];

  /** Light DOM: the page's stylesheet styles every screen. */
  protected override createRenderRoot() {
    return this;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const timer of this.timers) window.clearInterval(timer);
    document.removeEventListener('keydown', this.onKeydown);
  }

  override render() {
    const { link } = this;
    const { screen } = link;
    if (screen.kind === 'loading' || !link.locale.ready(screen.kind === 'ready' ? (screen.view.locale ?? null) : undefined)) {
      return html`<slk-loading-screen .texts=${link.texts}></slk-loading-screen>`;
    }
    // From here the locale is applied: `link.texts` speaks it.
    switch (screen.kind) {
      case 'failed':
        return html`<slk-load-failed-screen .texts=${link.texts}></slk-load-failed-screen>`;
      case 'mismatch':
        return html`<slk-origin-mismatch-screen .texts=${link.texts}></slk-origin-mismatch-screen>`;
      case 'invalid':
        return screen.expired
          ? html`<slk-expired-screen .texts=${link.texts} .mode=${link.mode} .redirect=${screen.redirect ?? null}></slk-expired-screen>`
          : html`<slk-invalid-screen .texts=${link.texts} .mode=${link.mode} .redirect=${screen.redirect ?? null}></slk-invalid-screen>`;
      case 'ready':
        if (refusedEmbedded(link, screen.view)) return html`<slk-not-embeddable-screen .texts=${link.texts}></slk-not-embeddable-screen>`;
        return html`<slk-networks-screen
          .link=${link}
          .texts=${link.texts}
          .view=${screen.view}
          .remaining=${link.remainingMs(screen.view)}
          .status=${link.status}
          .busy=${link.busyPlatform}
          .step=${link.inlineStep}
        ></slk-networks-screen>`;
    }
  }

  private async start(): Promise<void> {
    const { link } = this;
    const credential = takeLinkCredential();
    if (!credential) {
      link.screen = { kind: 'invalid', expired: false };
      return link.update();
    }
    link.setApi(createLinkApi(credential, link.embed));
    // On a first load the HTML already holds the view: render it now instead of asking the API for it.
    const inline = takeInlineSessionView();
    if (inline?.status === 'origin_mismatch') return this.showOriginMismatch(inline);
    // The service found the token unknown, expired or revoked: the API would answer the same 401.
    if (inline?.status === 'invalid') return endLink(link, null);
    const view = inline ? showView(link, inline) : await loadView(link);
    // The schemas (zod) are needed only from the first API answer or sign-in result on: load them now, off the
    // first render.
    schemas().catch(() => {}); // a failed load is retried by the first call that needs it
    if (!view) return;
    rememberSessionId(view.sessionId);
    link.messenger = createMessenger(view.sessionId, view.origin, link.mode);
    link.messenger.ready();
    if (link.mode === 'frame') fitFrameToContent(link.messenger, this.frameContent());
    // Reads sessionStorage (a sign-in pending across a reload): in a task of its own, off the first render.
    window.setTimeout(() => noticeOutOfBandLinks(link, view), 0);
    const announcer = document.getElementById('announcer') ?? this;
    this.timers.push(
      window.setInterval(() => tick(link, announcer), 1000),
      window.setInterval(() => {
        if (!link.ended && !document.hidden && link.busyPlatform === null) void loadView(link);
      }, REVALIDATE_MS),
    );
    document.addEventListener('keydown', this.onKeydown);
  }

  /**
   * Opened by a widget on an origin the session does not name: no linking here. The notice, and one coded error to
   * that origin (the only one that can hear it), so its widget stops waiting at once.
   */
  private showOriginMismatch(notice: OriginMismatchNotice): void {
    const { link } = this;
    forgetLinkCredential();
    link.ended = true;
    link.screen = { kind: 'mismatch' };
    link.update();
    const messenger = createMessenger(notice.sessionId, notice.opener, link.mode);
    if (link.mode === 'frame') fitFrameToContent(messenger, this.frameContent());
    messenger.error(ErrorCode.originInvalid, 'The link was opened from an origin its session does not name.', undefined, ORIGIN_MISMATCH_REASON);
  }

  /** What the frame's height follows: the <main> around the page (the document is as tall as the frame). */
  private frameContent(): HTMLElement {
    return this.closest('main') ?? this;
  }

  private readonly onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.link.mode !== 'direct') finish(this.link, 'escape');
  };
}
