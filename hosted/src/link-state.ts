/**
 * The state of one hosted page, owned by its `<slk-link-page>` element (a Lit reactive controller): which screen
 * shows, the session view, the network being connected, the open inline step, the status line, the messenger to
 * the integrator and the link API. The flows (session.ts, connect/) change it and call `update()`, which renders
 * the element again. Nothing here lives at module level: a second page element would have its own.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { NETWORK_LABELS } from '@social-link-kit/protocol/constants.js';
import { detectEmbed, detectMode, type Messenger, type PageMode } from './integrator-messenger.js';
import type { EmbedMode } from '@social-link-kit/protocol/constants.js';
import type { LinkApi } from './link-api.js';
import { PageLocale } from './locale.js';
import type { PageTexts, TextKey } from './texts.js';
import type { Values } from '../../src/i18n/translate.js';

export type Tone = 'info' | 'success' | 'error';
export type Status = { text: string; tone: Tone };
export type Screen =
  | { kind: 'loading' }
  | { kind: 'ready'; view: SessionView }
  | { kind: 'invalid'; expired: boolean; redirect?: string | null }
  | { kind: 'failed' }
  | { kind: 'mismatch' };
/** A network that connects on the page itself: its credentials form, or the code to send to its bot. */
export type InlineStep =
  | { method: 'credentials'; platform: Network }
  | { method: 'bot'; platform: Network; code: string; bot: string; deepLink: string };

export class LinkState implements ReactiveController {
  readonly mode: PageMode = detectMode();
  /** Frame, or the widget's popup: the page's API calls say so, and need the max-pack add-on (../embedding.ts). */
  readonly embed: EmbedMode | null = detectEmbed(this.mode);
  screen: Screen = { kind: 'loading' };
  /** The view shown before the current one: a link that replaced an account can tell whether it is the same one. */
  previousView: SessionView | null = null;
  status: Status | null = null;
  /** The network being connected or disconnected; every other button waits. */
  busyPlatform: Network | null = null;
  inlineStep: InlineStep | null = null;
  cancelActiveAttempt: (() => void) | null = null;
  /** Server time minus device time, from the last session read. */
  clockOffset = 0;
  /** The link stopped working (or never could here); nothing more is sent or started. */
  ended = false;
  messenger: Messenger | null = null;
  /** The widget (frame or popup) without max-pack was reported to the integrator (once). */
  embeddingRefusalReported = false;
  /** The countdown minute last announced to screen readers. */
  lastAnnouncedMinute = -1;
  readonly locale: PageLocale;
  private linkApi: LinkApi | null = null;

  constructor(private readonly host: ReactiveControllerHost & HTMLElement) {
    host.addController(this);
    this.locale = new PageLocale(() => this.update());
  }

  hostConnected(): void {}

  update(): void {
    this.host.requestUpdate();
  }

  get texts(): PageTexts {
    return this.locale.texts;
  }

  t(key: TextKey, values?: Values): string {
    return this.locale.texts.t(key, values);
  }

  /** Shows a status line (the networks screen moves the focus to a result: linked, failed, denied). */
  setStatus(text: string, tone: Tone = 'info'): void {
    this.status = { text, tone };
    this.update();
  }

  setApi(api: LinkApi): void {
    this.linkApi = api;
  }

  /** The service's API; start-up creates it before any flow runs. */
  api(): LinkApi {
    if (!this.linkApi) throw new Error('The link API is used before start-up.');
    return this.linkApi;
  }

  remainingMs(view: SessionView): number {
    return Date.parse(view.expiresAt) - (Date.now() + this.clockOffset);
  }

  /** The session view on screen, when the page shows one. */
  get view(): SessionView | null {
    return this.screen.kind === 'ready' ? this.screen.view : null;
  }
}

export const label = (platform: Network): string => NETWORK_LABELS[platform];

export const isLinked = (view: SessionView, platform: Network): boolean =>
  view.networks.some((network) => network.platform === platform && network.linked);
