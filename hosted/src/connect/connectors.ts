/**
 * How each connect method of the network catalogue starts on this page, and which element shows its inline step.
 * The page chooses by the method the session view gives each network, never by the network's name.
 */
import { html } from 'lit';
import type { ConnectMethod, Network } from '@social-link-kit/protocol/networks.js';
import type { InlineStep, LinkState } from '../link-state.js';
import { requestBotCode } from './bot-code-step.js';
import { openCredentialsStep } from './credentials-step.js';
import { connectWithPopup } from './oauth-popup.js';

/** Called from the network's Connect button, synchronously inside the click (the OAuth popup needs that). */
export const START_CONNECT = {
  oauth: connectWithPopup,
  credentials: openCredentialsStep,
  bot: (link: LinkState, platform: Network) => void requestBotCode(link, platform),
} satisfies Record<ConnectMethod, (link: LinkState, platform: Network) => void>;

export function inlineStepTemplate(link: LinkState, step: InlineStep, sandbox: boolean) {
  return step.method === 'credentials'
    ? html`<slk-credentials-step .link=${link} .platform=${step.platform} .sandbox=${sandbox} .texts=${link.texts} .busy=${link.busyPlatform !== null}></slk-credentials-step>`
    : html`<slk-bot-code-step .link=${link} .step=${step} .sandbox=${sandbox} .texts=${link.texts} .busy=${link.busyPlatform !== null}></slk-bot-code-step>`;
}
