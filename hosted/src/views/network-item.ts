/**
 * One network's row in the networks screen: its mark, name and linked state (and the sandbox note on sandbox
 * networks), Connect or Disconnect (asked twice: a second button confirms), and its inline step when one is open.
 * Every per-network fact comes from the session view and the catalogue (label, connect method), never from a name.
 */
import { html, nothing } from 'lit';
import type { SessionViewNetwork } from '../../../src/protocol/hosted-api.js';
import type { Network } from '../../../src/protocol/networks.js';
import { inlineStepTemplate } from '../connect/connectors.js';
import { label, type LinkState } from '../link-state.js';
import type { PageTexts } from '../texts.js';
import { networkLogoTemplate } from './network-logo.js';

/** What a row needs from its screen: the page state, the texts, and the screen's disconnect confirmation. */
export interface NetworkRowContext {
  link: LinkState;
  texts: PageTexts;
  confirmingDisconnect: Network | null;
  connect(network: SessionViewNetwork): void;
  askToDisconnect(network: SessionViewNetwork): void;
  confirmDisconnect(network: SessionViewNetwork): void;
  keep(): void;
}

export function networkItemTemplate(row: NetworkRowContext, network: SessionViewNetwork) {
  const { t } = row.texts;
  const name = label(network.platform);
  const step = row.link.inlineStep;
  return html`<li class="network ${network.linked ? 'linked' : ''}" data-platform=${network.platform}>
    ${networkLogoTemplate(network.platform)}
    <span class="name">${name}</span>
    <span class="state">${stateText(row.texts, network)}</span>
    ${network.sandbox ? html`<span class="sandbox-note">${t('sandboxNote', { network: name })}</span>` : nothing}
    ${network.linked ? linkedActions(row, network, name) : connectButton(row, network, name)}
    ${step?.platform === network.platform && !network.linked ? inlineStepTemplate(row.link, step, network.sandbox === true) : nothing}
  </li>`;
}

function connectButton(row: NetworkRowContext, network: SessionViewNetwork, name: string) {
  const { t } = row.texts;
  const busy = row.link.busyPlatform === network.platform;
  return html`<button type="button" class="action" aria-label=${t('connectLabel', { network: name })} aria-busy=${busy ? 'true' : 'false'}
    ?disabled=${row.link.busyPlatform !== null} @click=${() => row.connect(network)}>${busy ? '…' : t('connect')}</button>`;
}

function linkedActions(row: NetworkRowContext, network: SessionViewNetwork, name: string) {
  const { t } = row.texts;
  if (row.confirmingDisconnect !== network.platform) {
    return html`<button type="button" class="action secondary" aria-label=${t('disconnectLabel', { network: name })}
      ?disabled=${row.link.busyPlatform !== null} @click=${() => row.askToDisconnect(network)}>${t('disconnect')}</button>`;
  }
  return html`<div class="confirm" role="group" aria-labelledby="confirm-${network.platform}">
    <p id="confirm-${network.platform}">${t('disconnectConfirm', { network: name })}</p>
    <div class="actions">
      <button type="button" class="danger" data-confirm-disconnect ?disabled=${row.link.busyPlatform !== null}
        @click=${() => row.confirmDisconnect(network)}>${t('disconnect')}</button>
      <button type="button" class="secondary" @click=${() => row.keep()}>${t('keepConnected')}</button>
    </div>
  </div>`;
}

function stateText(texts: PageTexts, network: SessionViewNetwork): string {
  if (!network.linked) return texts.t('notConnected');
  const name = network.displayName || network.username;
  return name ? texts.t('connectedAs', { name }) : texts.t('connected');
}
