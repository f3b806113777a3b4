/**
 * The link session as the page sees it: reading it (the server is the source of truth), ending the link when the
 * server stops accepting it, leaving, disconnecting, and the countdown. Each outcome goes to the integrator's
 * page exactly once per attempt.
 */
import { ErrorCode } from '../../src/protocol/error-codes.js';
import type { SessionView } from '../../src/protocol/hosted-api.js';
import type { CancelReason } from '../../src/protocol/messages.js';
import { isNetwork, type Network } from '../../src/protocol/networks/catalog.js';
import { LinkPageError, messageOf } from './link-api.js';
import { forgetLinkCredential, pendingPlatform, rememberPendingPlatform } from './link-credential.js';
import { api, isLinked, label, page, remainingMs, setStatus, update } from './state.js';
import { formatDuration, t } from './texts.js';

/** Shows a session view, from the API or inlined in the page's HTML. */
export function showView(view: SessionView): SessionView {
  page.clockOffset = Date.parse(view.serverTime) - Date.now();
  page.screen = { kind: 'ready', view };
  noticeOutOfBandLinks(view);
  update();
  return view;
}

export async function loadView(): Promise<SessionView | null> {
  try {
    return showView(await api().view());
  } catch (error) {
    if (isLinkRefused(error)) {
      const known = page.screen.kind === 'ready' ? page.screen.view : null;
      endLink(known && remainingMs(known) <= 0 ? 'expired' : known ? 'revoked' : null);
    } else if (page.screen.kind === 'loading') {
      page.screen = { kind: 'failed' };
      update();
    }
    return null;
  }
}

/** The service no longer accepts the link credential. */
export const isLinkRefused = (error: unknown): boolean => error instanceof LinkPageError && error.status === 401;

/** A network is linked: tell the integrator and the user. */
export function announceLinked(platform: Network): void {
  page.messenger?.success(platform);
  setStatus(t('linked', { network: label(platform) }), 'success');
}

/** A connection attempt failed: tell the integrator (with the service's code when it gave one) and the user. */
export function reportConnectError(platform: Network, error: unknown): void {
  const message = messageOf(error);
  const code = error instanceof LinkPageError && error.code ? error.code : ErrorCode.connectFailed;
  page.messenger?.error(code, message, platform);
  setStatus(t('failed', { network: label(platform), message }), 'error');
}

/**
 * Called after each session read: reports networks linked out of band (a bot's code), and a sign-in that
 * finished while this page was being reloaded (its window outlived the page that opened it).
 */
export function noticeOutOfBandLinks(view: SessionView): void {
  if (!page.messenger) return;
  const pending = page.busyPlatform === null ? pendingPlatform() : null;
  if (pending && isNetwork(pending) && isLinked(view, pending)) {
    rememberPendingPlatform(null);
    announceLinked(pending);
  }
  const step = page.inlineStep;
  if (step?.method === 'bot' && isLinked(view, step.platform)) {
    page.inlineStep = null;
    announceLinked(step.platform);
  }
}

/** The link stopped working: tell the integrator once (when it was working before) and show why. */
export function endLink(reason: Extract<CancelReason, 'expired' | 'revoked'> | null): void {
  if (page.ended) return;
  page.ended = true;
  page.cancelActiveAttempt?.();
  forgetLinkCredential();
  if (reason) page.messenger?.cancelled(reason);
  const redirect = page.screen.kind === 'ready' ? page.screen.view.redirect : null;
  page.screen = { kind: 'invalid', expired: reason === 'expired', redirect };
  update();
}

/** Runs `work` while `platform` is busy (every other button waits), and shows its failure on the page. */
export async function whileBusy(platform: Network, work: () => Promise<void>): Promise<void> {
  page.busyPlatform = platform;
  update();
  try {
    await work();
  } catch (error) {
    setStatus(t('failed', { network: label(platform), message: messageOf(error) }), 'error');
  } finally {
    page.busyPlatform = null;
    update();
  }
}

export async function disconnect(platform: Network): Promise<void> {
  if (page.busyPlatform || page.ended) return;
  await whileBusy(platform, async () => {
    await api().disconnect(platform);
    page.messenger?.disconnected(platform);
    await loadView();
    setStatus(t('disconnected', { network: label(platform) }));
  });
}

/** Done / Escape: the user is leaving. The widget treats this as a plain close after a success. */
export function finish(reason: CancelReason = 'close_button'): void {
  if (page.ended) return;
  const view = page.screen.kind === 'ready' ? page.screen.view : null;
  page.cancelActiveAttempt?.();
  page.messenger?.cancelled(reason);
  if (page.mode === 'popup') window.close();
  else if (page.mode === 'direct' && view?.redirect) window.location.assign(view.redirect);
}

let lastAnnouncedMinute = -1;

/** Every second: the countdown, announced to screen readers once a minute near the end, and expiry. */
export function tick(announcer: HTMLElement): void {
  if (page.screen.kind !== 'ready' || page.ended) return;
  const remaining = remainingMs(page.screen.view);
  if (remaining <= 0) return endLink('expired');
  const minute = Math.ceil(remaining / 60_000);
  if (minute !== lastAnnouncedMinute && (minute <= 2 || lastAnnouncedMinute === -1)) {
    lastAnnouncedMinute = minute;
    announcer.textContent = t('expiresIn', { time: formatDuration(remaining) });
  }
  update();
}
