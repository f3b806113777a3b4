/**
 * One network's row: its mark, name and linked state (and the sandbox note on sandbox networks), Connect or
 * Disconnect (asked twice: a second button confirms), and its inline step when one is open.
 */
import { html, nothing } from 'lit';
import type { SessionViewNetwork } from '../../../src/protocol/hosted-api.js';
import { START_CONNECT, inlineStepTemplate } from '../connect/connectors.js';
import { disconnect } from '../session.js';
import { label, page, update } from '../state.js';
import { t } from '../texts.js';
import { networkLogoTemplate } from './network-logo.js';

export function networkItemTemplate(network: SessionViewNetwork) {
  const name = label(network.platform);
  const step = page.inlineStep;
  return html`<li class="network ${network.linked ? 'linked' : ''}" data-platform=${network.platform}>
    ${networkLogoTemplate(network.platform)}
    <span class="name">${name}</span>
    <span class="state">${stateText(network)}</span>
    ${network.sandbox ? html`<span class="sandbox-note">${t('sandboxNote', { network: name })}</span>` : nothing}
    ${network.linked ? linkedActions(network, name) : connectButton(network, name)}
    ${step?.platform === network.platform && !network.linked ? inlineStepTemplate(step) : nothing}
  </li>`;
}

function connectButton(network: SessionViewNetwork, name: string) {
  const busy = page.busyPlatform === network.platform;
  return html`<button type="button" class="action" aria-label=${t('connectLabel', { network: name })} aria-busy=${busy ? 'true' : 'false'}
    ?disabled=${page.busyPlatform !== null} @click=${() => START_CONNECT[network.method](network.platform)}>${busy ? '…' : t('connect')}</button>`;
}

function linkedActions(network: SessionViewNetwork, name: string) {
  if (page.confirmingDisconnect !== network.platform) {
    return html`<button type="button" class="action secondary" aria-label=${t('disconnectLabel', { network: name })}
      ?disabled=${page.busyPlatform !== null} @click=${() => askToDisconnect(network)}>${t('disconnect')}</button>`;
  }
  return html`<div class="confirm" role="group" aria-labelledby="confirm-${network.platform}">
    <p id="confirm-${network.platform}">${t('disconnectConfirm', { network: name })}</p>
    <div class="actions">
      <button type="button" class="danger" data-confirm-disconnect ?disabled=${page.busyPlatform !== null}
        @click=${() => confirmDisconnect(network)}>${t('disconnect')}</button>
      <button type="button" class="secondary" @click=${() => keep()}>${t('keepConnected')}</button>
    </div>
  </div>`;
}

function askToDisconnect(network: SessionViewNetwork): void {
  page.confirmingDisconnect = network.platform;
  update();
  document.querySelector<HTMLButtonElement>(`[data-platform="${network.platform}"] [data-confirm-disconnect]`)?.focus();
}

function keep(): void {
  const platform = page.confirmingDisconnect;
  page.confirmingDisconnect = null;
  update();
  document.querySelector<HTMLButtonElement>(`[data-platform="${platform}"] .action`)?.focus();
}

function confirmDisconnect(network: SessionViewNetwork): void {
  page.confirmingDisconnect = null;
  void disconnect(network.platform);
}

function stateText(network: SessionViewNetwork): string {
  if (!network.linked) return t('notConnected');
  const name = network.displayName || network.username;
  return name ? t('connectedAs', { name }) : t('connected');
}
