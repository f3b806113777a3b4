/**
 * The hosted page's state, in one object that the views read and the flows change. Changing it is followed by
 * `update()`, which renders the views (main.ts registers the renderer, so flows need not import views).
 */
import type { Network } from '../../src/protocol/networks.js';
import type { SessionView } from '../../src/protocol/hosted-api.js';
import { NETWORK_LABELS } from '../../src/protocol/constants.js';
import { detectMode, type Messenger } from './integrator-messenger.js';
import type { LinkApi } from './link-api.js';

export type Tone = 'info' | 'success' | 'error';
export type Screen = { kind: 'loading' } | { kind: 'ready'; view: SessionView } | { kind: 'invalid'; expired: boolean; redirect?: string | null } | { kind: 'failed' } | { kind: 'mismatch' };
/** A network that connects on the page itself: its credentials form, or the code to send to its bot. */
export type InlineStep =
  | { method: 'credentials'; platform: Network }
  | { method: 'bot'; platform: Network; code: string; bot: string; deepLink: string };

export const page = {
  mode: detectMode(),
  screen: { kind: 'loading' } as Screen,
  status: null as { text: string; tone: Tone } | null,
  /** The network being connected or disconnected; every other button waits. */
  busyPlatform: null as Network | null,
  inlineStep: null as InlineStep | null,
  /** The network whose Disconnect was pressed once: its row asks for confirmation. */
  confirmingDisconnect: null as Network | null,
  cancelActiveAttempt: null as (() => void) | null,
  /** Server time minus device time, from the last session read. */
  clockOffset: 0,
  /** The link stopped working; nothing more is sent or started. */
  ended: false,
  api: null as LinkApi | null,
  messenger: null as Messenger | null,
};

let renderer: () => void = () => {};

export function setRenderer(render: () => void): void {
  renderer = render;
}

export function update(): void {
  renderer();
}

export function setStatus(text: string, tone: Tone = 'info'): void {
  page.status = { text, tone };
  update();
  // A result (linked, failed, denied) takes the focus, so keyboard and screen-reader users land on it.
  if (tone !== 'info') document.querySelector<HTMLElement>('.message')?.focus();
}

export const label = (platform: Network): string => NETWORK_LABELS[platform];

export const remainingMs = (view: SessionView): number => Date.parse(view.expiresAt) - (Date.now() + page.clockOffset);

export const isLinked = (view: SessionView, platform: Network): boolean =>
  view.networks.some((network) => network.platform === platform && network.linked);

/** The service's API; start-up creates it before any flow runs. */
export function api(): LinkApi {
  if (!page.api) throw new Error('The link API is used before start-up.');
  return page.api;
}
