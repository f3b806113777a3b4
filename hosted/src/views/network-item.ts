/**
 * One network's row in the networks screen: its mark, name and linked state (and the sandbox note on sandbox
 * networks; why a linked account needs attention, with Reconnect when only linking again helps), Connect or Disconnect (asked twice: a second button confirms), and its inline step when one is open.
 * Every per-network fact comes from the session view and the catalogue (label, connect method), never from a name.
 * Plain data in, a template out: the service renders the same rows into the page's HTML (../first-screen.ts).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { SessionViewNetwork } from '@social-link-kit/protocol/hosted-api.js';
import { NETWORK_LABELS } from '@social-link-kit/protocol/constants.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import type { InlineStep } from '../link-state.js';
import type { PageTexts } from '../texts.js';
import { networkLogoTemplate } from './network-logo.js';

/** What a row needs from its screen: the texts, who is busy, the open inline step, the disconnect confirmation. */
export interface NetworkRowContext {
  texts: PageTexts;
  /** The network being connected or disconnected; every other button waits. */
  busy: Network | null;
  step: InlineStep | null;
  confirmingDisconnect: Network | null;
  stepTemplate(step: InlineStep, sandbox: boolean): TemplateResult;
  connect(network: SessionViewNetwork): void;
  askToDisconnect(network: SessionViewNetwork): void;
  confirmDisconnect(network: SessionViewNetwork): void;
  keep(): void;
}

export function networkItemTemplate(row: NetworkRowContext, network: SessionViewNetwork) {
  const { t } = row.texts;
  const name = NETWORK_LABELS[network.platform];
  const { step } = row;
  return html`<li class="network ${network.linked ? 'linked' : ''}" data-platform=${network.platform}>
    ${networkLogoTemplate(network.platform)}
    <span class="name">${name}</span>
    <span class="state">${stateText(row.texts, network)}</span>
    ${network.sandbox ? html`<span class="sandbox-note">${t('sandboxNote', { network: name })}</span>` : nothing}
    ${network.networkStatus ? html`<span class="network-status-note" data-network-status=${network.networkStatus}>${t(network.networkStatus === 'down' ? 'networkDown' : 'networkDegraded', { network: name })}</span>` : nothing}
    ${network.attention ? html`<span class="attention-note" data-attention=${network.attention}>${t(ATTENTION_TEXT[network.attention], { network: name })}</span>` : nothing}
    ${network.available === false && !network.linked
      ? html`<span class="network-status-note" data-network-status="unavailable">${t('networkNotOffered', { network: name })}</span>`
      : nothing}
    ${network.available === false && !network.linked
      ? nothing
      : network.linked && needsRelink(network)
      ? html`<div class="relink-actions">${connectButton(row, network, name, true)}${linkedActions(row, network, name)}</div>`
      : network.linked
        ? linkedActions(row, network, name)
        : connectButton(row, network, name)}
    ${step?.platform === network.platform && (!network.linked || needsRelink(network)) ? row.stepTemplate(step, network.sandbox === true) : nothing}
  </li>`;
}

/** Why a linked account needs attention (account health): only a relink helps for the last two. */
const ATTENTION_TEXT = { degraded: 'attentionDegraded', needs_relink: 'attentionRelink', revoked: 'attentionRevoked' } as const;
const needsRelink = (network: SessionViewNetwork) => network.attention === 'needs_relink' || network.attention === 'revoked';

function connectButton(row: NetworkRowContext, network: SessionViewNetwork, name: string, again = false) {
  const { t } = row.texts;
  const busy = row.busy === network.platform;
  return html`<button type="button" class="action" data-reconnect=${again ? 'true' : nothing} aria-label=${t(again ? 'reconnectLabel' : 'connectLabel', { network: name })} aria-busy=${busy ? 'true' : 'false'}
    ?disabled=${row.busy !== null || network.networkStatus === 'down'} @click=${() => row.connect(network)}>${busy ? '…' : t(again ? 'reconnect' : 'connect')}</button>`;
}

function linkedActions(row: NetworkRowContext, network: SessionViewNetwork, name: string) {
  const { t } = row.texts;
  if (row.confirmingDisconnect !== network.platform) {
    return html`<button type="button" class="action secondary" aria-label=${t('disconnectLabel', { network: name })}
      ?disabled=${row.busy !== null} @click=${() => row.askToDisconnect(network)}>${t('disconnect')}</button>`;
  }
  return html`<div class="confirm" role="group" aria-labelledby="confirm-${network.platform}">
    <p id="confirm-${network.platform}">${t('disconnectConfirm', { network: name })}</p>
    <div class="actions">
      <button type="button" class="danger" data-confirm-disconnect ?disabled=${row.busy !== null}
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
