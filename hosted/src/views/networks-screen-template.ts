/**
 * The networks screen's markup, from plain data: the integrator's branding, the countdown, the status line, the
 * list of networks (each row in ./network-item.ts) and Done. The `<slk-networks-screen>` element renders it in the
 * browser, and the service renders the same template into the page's HTML (../first-screen.ts) so the first screen
 * paints before the page's script has run.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionView, SessionViewNetwork } from '@social-link-kit/protocol/hosted-api.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import type { PageMode } from '../integrator-messenger.js';
import type { InlineStep, Status } from '../link-state.js';
import type { PageTexts } from '../texts.js';
import { brandHeaderTemplate, brandingOf } from './branding.js';
import { networkItemTemplate } from './network-item.js';

/** Embedded web views and in-app browsers, where Google and others refuse OAuth (403 disallowed_useragent). */
const IN_APP_BROWSER = /; wv\)|FBAN|FBAV|Instagram|Line\/|GSA\/|Twitter|TikTok|Snapchat|LinkedInApp|MicroMessenger/;

export const isInAppBrowser = (userAgent: string): boolean => IN_APP_BROWSER.test(userAgent);

/** What the buttons do; the service's copy of the screen has none (nothing acts before the page script runs). */
export interface NetworksScreenActions {
  connect(network: SessionViewNetwork): void;
  askToDisconnect(network: SessionViewNetwork): void;
  confirmDisconnect(network: SessionViewNetwork): void;
  keep(): void;
  finish(): void;
  stepTemplate(step: InlineStep, sandbox: boolean): TemplateResult;
}

export interface NetworksScreenModel {
  texts: PageTexts;
  view: SessionView;
  mode: PageMode;
  /** Milliseconds until the link expires, by the server's clock. */
  remaining: number;
  status: Status | null;
  busy: Network | null;
  step: InlineStep | null;
  /** The network whose Disconnect was pressed once: its row asks for confirmation. */
  confirmingDisconnect: Network | null;
  inAppBrowser: boolean;
  actions: NetworksScreenActions;
}

export function networksScreenTemplate(model: NetworksScreenModel) {
  const { texts, view, remaining, status, actions } = model;
  const { t, formatDuration } = texts;
  const branding = brandingOf(view);
  const linkedCount = view.networks.filter((network) => network.linked).length;
  const row = { texts, busy: model.busy, step: model.step, confirmingDisconnect: model.confirmingDisconnect, ...actions };
  return html`<header>
      ${brandHeaderTemplate(texts, branding)}
      <p class="subtitle">${t('subtitle', { title: view.title })}</p>
      <p class="countdown ${remaining < 60_000 ? 'soon' : ''}">
        ${t(remaining < 60_000 ? 'expiresSoon' : 'expiresIn', { time: formatDuration(remaining) })}
      </p>
    </header>
    ${model.inAppBrowser ? html`<p class="message info" data-webview>${t('webviewNotice')}</p>` : nothing}
    <div role="status" aria-live="polite">${status ? html`<p class="message ${status.tone}" tabindex="-1">${status.text}</p>` : nothing}</div>
    <p class="linked-count">${t('linkedCount', { count: linkedCount })}</p>
    <ul class="networks">
      ${view.networks.map((network) => networkItemTemplate(row, network))}
    </ul>
    <footer>
      <button type="button" class="secondary" @click=${() => actions.finish()}>${model.mode === 'direct' && view.redirect ? t('backToApp') : t('done')}</button>
    </footer>`;
}
