/** One network's row: its name, its linked state, Connect or Disconnect, and its inline step when one is open. */
import { html, nothing } from 'lit';
import type { SessionViewNetwork } from '../../../src/protocol/hosted-api.js';
import { START_CONNECT, inlineStepTemplate } from '../connect/connectors.js';
import { disconnect } from '../session.js';
import { label, page } from '../state.js';
import { t } from '../texts.js';

export function networkItemTemplate(network: SessionViewNetwork) {
  const name = label(network.platform);
  const busy = page.busyPlatform === network.platform;
  const step = page.inlineStep;
  return html`<li class="network ${network.linked ? 'linked' : ''}" data-platform=${network.platform}>
    <span class="name">${name}</span>
    <span class="state">${stateText(network)}</span>
    ${network.linked
      ? html`<button type="button" class="secondary" aria-label=${t('disconnectLabel', { network: name })}
          ?disabled=${page.busyPlatform !== null} @click=${() => disconnect(network.platform)}>${t('disconnect')}</button>`
      : html`<button type="button" aria-label=${t('connectLabel', { network: name })} aria-busy=${busy ? 'true' : 'false'}
          ?disabled=${page.busyPlatform !== null} @click=${() => START_CONNECT[network.method](network.platform)}>${busy ? '…' : t('connect')}</button>`}
    ${step?.platform === network.platform && !network.linked ? inlineStepTemplate(step) : nothing}
  </li>`;
}

function stateText(network: SessionViewNetwork): string {
  if (!network.linked) return t('notConnected');
  const name = network.displayName || network.username;
  return name ? t('connectedAs', { name: network.displayName ?? network.username ?? '' }) : t('connected');
}
