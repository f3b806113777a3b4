/**
 * The main screen: the integrator's branding, the countdown, the status line, the list of networks (each row in
 * ./network-item.ts) and Done. It keeps its own row state (which Disconnect asks for confirmation) and moves the
 * focus to a result (linked, failed, denied) so keyboard and screen-reader users land on it.
 */
import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SessionView, SessionViewNetwork } from '../../../src/protocol/hosted-api.js';
import type { Network } from '../../../src/protocol/networks.js';
import { START_CONNECT } from '../connect/connectors.js';
import type { InlineStep, LinkState, Status } from '../link-state.js';
import { disconnect, finish } from '../session.js';
import { applyBrandColor, brandHeaderTemplate, brandingOf } from './branding.js';
import { LightElement } from './light-element.js';
import { networkItemTemplate, type NetworkRowContext } from './network-item.js';

/** Embedded web views and in-app browsers, where Google and others refuse OAuth (403 disallowed_useragent). */
const IN_APP_BROWSER = /; wv\)|FBAN|FBAV|Instagram|Line\/|GSA\/|Twitter|TikTok|Snapchat|LinkedInApp|MicroMessenger/;

export class NetworksScreen extends LightElement {
  static readonly tagName = 'slk-networks-screen';
  @property({ attribute: false }) link!: LinkState;
  @property({ attribute: false }) view!: SessionView;
  /** Milliseconds until the link expires, by the server's clock (a new value every second). */
  @property({ attribute: false }) remaining = 0;
  @property({ attribute: false }) status: Status | null = null;
  @property({ attribute: false }) busy: Network | null = null;
  @property({ attribute: false }) step: InlineStep | null = null;
  /** The network whose Disconnect was pressed once: its row asks for confirmation. */
  @state() private confirmingDisconnect: Network | null = null;
  private appliedColor: string | undefined;

  override render() {
    const { t, formatDuration } = this.texts;
    const { view, remaining, status } = this;
    const branding = brandingOf(view);
    const linkedCount = view.networks.filter((network) => network.linked).length;
    const row: NetworkRowContext = {
      link: this.link,
      texts: this.texts,
      confirmingDisconnect: this.confirmingDisconnect,
      connect: (network) => START_CONNECT[network.method](this.link, network.platform),
      askToDisconnect: (network) => void this.askToDisconnect(network),
      confirmDisconnect: (network) => {
        this.confirmingDisconnect = null;
        void disconnect(this.link, network.platform);
      },
      keep: () => void this.keep(),
    };
    return html`<header>
        ${brandHeaderTemplate(this.texts, branding)}
        <p class="subtitle">${t('subtitle', { title: view.title })}</p>
        <p class="countdown ${remaining < 60_000 ? 'soon' : ''}">
          ${t(remaining < 60_000 ? 'expiresSoon' : 'expiresIn', { time: formatDuration(remaining) })}
        </p>
      </header>
      ${IN_APP_BROWSER.test(navigator.userAgent) ? html`<p class="message info" data-webview>${t('webviewNotice')}</p>` : nothing}
      <div role="status" aria-live="polite">${status ? html`<p class="message ${status.tone}" tabindex="-1">${status.text}</p>` : nothing}</div>
      <p class="linked-count">${t('linkedCount', { count: linkedCount })}</p>
      <ul class="networks">
        ${view.networks.map((network) => networkItemTemplate(row, network))}
      </ul>
      <footer>
        <button type="button" class="secondary" @click=${() => finish(this.link)}>${this.link.mode === 'direct' && view.redirect ? t('backToApp') : t('done')}</button>
      </footer>`;
  }

  protected override updated(changed: PropertyValues<this>): void {
    const { color } = brandingOf(this.view);
    if (color !== this.appliedColor) {
      this.appliedColor = color;
      applyBrandColor(brandingOf(this.view));
    }
    if (changed.has('status') && this.status && this.status.tone !== 'info') this.querySelector<HTMLElement>('.message')?.focus();
  }

  private async askToDisconnect(network: SessionViewNetwork): Promise<void> {
    this.confirmingDisconnect = network.platform;
    await this.updateComplete;
    this.querySelector<HTMLButtonElement>(`[data-platform="${network.platform}"] [data-confirm-disconnect]`)?.focus();
  }

  private async keep(): Promise<void> {
    const platform = this.confirmingDisconnect;
    this.confirmingDisconnect = null;
    await this.updateComplete;
    this.querySelector<HTMLButtonElement>(`[data-platform="${platform}"] .action`)?.focus();
  }
}
