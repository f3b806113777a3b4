/**
 * Connect method `bot`: the service hands out a short code that the user sends to the network's bot; the bot's
 * webhook completes the link out of band, and the page learns it from its regular session reads
 * (`noticeOutOfBandLinks` in ../session.ts).
 */
import { html, nothing } from 'lit';
import type { Network } from '../../../src/protocol/networks.js';
import { loadView, whileBusy } from '../session.js';
import { api, label, page, setStatus, type InlineStep } from '../state.js';
import { t } from '../texts.js';

export async function requestBotCode(platform: Network): Promise<void> {
  await whileBusy(platform, async () => {
    const started = await api().requestBotCode(platform);
    page.inlineStep = { method: 'bot', platform, code: started.code, bot: started.botUsername, deepLink: started.deepLink };
    setStatus(t('botWaiting'));
  });
}

/** Sandbox only: plays the bot receiving the code (the page then sees the link through its session read). */
async function simulateBot(step: Extract<InlineStep, { method: 'bot' }>): Promise<void> {
  await whileBusy(step.platform, async () => {
    const response = await fetch(new URL('/sandbox/telegram-bot', location.origin), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ code: step.code }),
    });
    if (!response.ok) throw new Error(t('loadFailedBody'));
    await loadView();
  });
}

const isSandbox = (platform: Network) =>
  page.screen.kind === 'ready' && page.screen.view.networks.some((network) => network.platform === platform && network.sandbox);

export function botCodeTemplate(step: Extract<InlineStep, { method: 'bot' }>) {
  const network = label(step.platform);
  return html`<div class="inline">
    <p>${t('botHint', { bot: `@${step.bot}`, network })}</p>
    <p class="code" aria-label=${t('botCode')}>${step.code}</p>
    <p><a href=${step.deepLink} target="_blank" rel="noopener noreferrer">${t('botOpen', { network })}</a></p>
    <p class="hint" role="status">${t('botWaiting')}</p>
    ${isSandbox(step.platform)
      ? html`<p><button type="button" class="secondary" ?disabled=${page.busyPlatform !== null} @click=${() => void simulateBot(step)}>${t('simulateBot')}</button></p>`
      : nothing}
  </div>`;
}
