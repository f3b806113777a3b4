/**
 * The main screen (its markup in ./networks-screen-template.ts: branding, countdown, status line, the networks and
 * Done), wired to the page's flows. It keeps its own row state (which Disconnect asks for confirmation) and moves the
 * focus to a result (linked, failed, denied) so keyboard and screen-reader users land on it.
 */
import type { PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { SessionView, SessionViewNetwork } from '@social-link-kit/protocol/hosted-api.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { START_CONNECT, inlineStepTemplate } from '../connect/connectors.js';
import type { InlineStep, LinkState, Status } from '../link-state.js';
import { disconnect, finish } from '../session.js';
import { applyBrandColor, brandingOf } from './branding.js';
import { LightElement } from './light-element.js';
import { isInAppBrowser, networksScreenTemplate } from './networks-screen-template.js';
import { TAG } from './tag-names.js';

export class NetworksScreen extends LightElement {
  static readonly tagName = TAG.networksScreen;
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
    const { link } = this;
    return networksScreenTemplate({
      texts: this.texts,
      view: this.view,
      mode: link.mode,
      remaining: this.remaining,
      status: this.status,
      busy: this.busy,
      step: this.step,
      confirmingDisconnect: this.confirmingDisconnect,
      inAppBrowser: isInAppBrowser(navigator.userAgent),
      actions: {
        connect: (network) => START_CONNECT[network.method](link, network.platform),
        askToDisconnect: (network) => void this.askToDisconnect(network),
        confirmDisconnect: (network) => {
          this.confirmingDisconnect = null;
          void disconnect(link, network.platform);
        },
        keep: () => void this.keep(),
        finish: () => finish(link),
        stepTemplate: (step, sandbox) => inlineStepTemplate(link, step, sandbox),
      },
    });
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
