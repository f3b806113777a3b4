/**
 * Connect method `bot`: the service hands out a short code that the user sends to the network's bot; the bot's
 * webhook completes the link out of band, and the page learns it from its regular session reads
 * (`noticeOutOfBandLinks` in ../session.ts).
 */
import { LitElement, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { label, type InlineStep, type LinkState } from '../link-state.js';
import { loadView, whileBusy } from '../session.js';
import { ENGLISH_TEXTS, type PageTexts } from '../texts.js';

export async function requestBotCode(link: LinkState, platform: Network): Promise<void> {
  await whileBusy(link, platform, async () => {
    const started = await link.api().requestBotCode(platform);
    link.inlineStep = { method: 'bot', platform, code: started.code, bot: started.botUsername, deepLink: started.deepLink };
    link.setStatus(link.t('botWaiting'));
  });
}

export class BotCodeStep extends LitElement {
  static readonly tagName = 'slk-bot-code-step';
  @property({ attribute: false }) link!: LinkState;
  @property({ attribute: false }) step!: Extract<InlineStep, { method: 'bot' }>;
  @property({ attribute: false }) texts: PageTexts = ENGLISH_TEXTS;
  /** The network is a sandbox: the step offers to play the bot. */
  @property({ attribute: false }) sandbox = false;
  @property({ attribute: false }) busy = false;

  /** Light DOM: the page's stylesheet lays the step out in the network's row. */
  protected override createRenderRoot() {
    return this;
  }

  override render() {
    const { t } = this.texts;
    const { step } = this;
    const network = label(step.platform);
    return html`<div class="inline">
      <p>${t('botHint', { bot: `@${step.bot}`, network })}</p>
      <p class="code" aria-label=${t('botCode')}>${step.code}</p>
      <p><a href=${step.deepLink} target="_blank" rel="noopener noreferrer">${t('botOpen', { network })}</a></p>
      <p class="hint" role="status">${t('botWaiting')}</p>
      ${this.sandbox
        ? html`<p><button type="button" class="secondary" ?disabled=${this.busy} @click=${this.simulateBot}>${t('simulateBot')}</button></p>`
        : nothing}
    </div>`;
  }

  /** Sandbox only: plays the bot receiving the code (the page then sees the link through its session read). */
  private readonly simulateBot = async (): Promise<void> => {
    const { link, step } = this;
    await whileBusy(link, step.platform, async () => {
      // The sandbox's stand-in bot of this network (the sandbox package, sandbox/src): its path follows the network's id.
      const response = await fetch(new URL(`/sandbox/${step.platform}-bot`, location.origin), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ code: step.code }),
      });
      if (!response.ok) throw new Error(link.t('loadFailedBody'));
      await loadView(link);
    });
  };
}
