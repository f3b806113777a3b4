/**
 * Connect method `bot`: the service hands out a short code that the user sends to the network's bot; the bot's
 * webhook completes the link out of band, and the page learns it from its regular session reads
 * (`noticeOutOfBandLinks` in ../session.ts).
 */
import { html } from 'lit';
import type { Network } from '../../../src/protocol/networks.js';
import { whileBusy } from '../session.js';
import { api, label, page, setStatus, type InlineStep } from '../state.js';
import { t } from '../texts.js';

export async function requestBotCode(platform: Network): Promise<void> {
  await whileBusy(platform, async () => {
    const started = await api().requestBotCode(platform);
    page.inlineStep = { method: 'bot', platform, code: started.code, bot: started.botUsername, deepLink: started.deepLink };
    setStatus(t('botWaiting'));
  });
}

export function botCodeTemplate(step: Extract<InlineStep, { method: 'bot' }>) {
  const network = label(step.platform);
  return html`<div class="inline">
    <p>${t('botHint', { bot: `@${step.bot}`, network })}</p>
    <p class="code" aria-label=${t('botCode')}>${step.code}</p>
    <p><a href=${step.deepLink} target="_blank" rel="noopener noreferrer">${t('botOpen', { network })}</a></p>
    <p class="hint" role="status">${t('botWaiting')}</p>
  </div>`;
}
