/**
 * How each connect method of the network catalogue starts on this page, and what it shows inline. The page
 * chooses by the method the session view gives each network, never by the network's name.
 */
import type { ConnectMethod, Network } from '../../../src/protocol/networks.js';
import type { InlineStep } from '../state.js';
import { botCodeTemplate, requestBotCode } from './bot-code.js';
import { credentialsFormTemplate, openCredentialsForm } from './credentials-form.js';
import { connectWithPopup } from './oauth-popup.js';

/** Called from the network's Connect button, synchronously inside the click (the OAuth popup needs that). */
export const START_CONNECT = {
  oauth: connectWithPopup,
  credentials: openCredentialsForm,
  bot: (platform: Network) => void requestBotCode(platform),
} satisfies Record<ConnectMethod, (platform: Network) => void>;

export function inlineStepTemplate(step: InlineStep) {
  return step.method === 'credentials' ? credentialsFormTemplate(step.platform) : botCodeTemplate(step);
}
