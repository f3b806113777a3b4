/**
 * The link session as the page sees it: reading it (the server is the source of truth), ending the link when the
 * server stops accepting it, leaving, disconnecting, and the countdown. Each outcome goes to the integrator's
 * page exactly once per attempt. Every flow works on the page's own `LinkState`.
 */
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import type { CancelReason } from '@social-link-kit/protocol/messages.js';
import { isNetwork, type Network } from '@social-link-kit/protocol/networks/catalog.js';
import { LinkPageError, messageOf } from './link-api.js';
import { forgetLinkCredential, pendingPlatform, rememberPendingPlatform } from './link-credential.js';
import { isLinked, label, type LinkState } from './link-state.js';

/** Shows a session view, from the API or inlined in the page's HTML. */
export function showView(link: LinkState, view: SessionView): SessionView {
  link.clockOffset = Date.parse(view.serverTime) - Date.now();
  link.previousView = link.view;
  link.screen = { kind: 'ready', view };
  noticeOutOfBandLinks(link, view);
  link.update();
  return view;
}

export async function loadView(link: LinkState): Promise<SessionView | null> {
  try {
    return showView(link, await link.api().view());
  } catch (error) {
    if (isLinkRefused(error)) {
      const known = link.view;
      endLink(link, known && link.remainingMs(known) <= 0 ? 'expired' : known ? 'revoked' : null);
    } else if (link.screen.kind === 'loading') {
      link.screen = { kind: 'failed' };
      link.update();
    }
    return null;
  }
}

/** The service no longer accepts the link credential. */
export const isLinkRefused = (error: unknown): boolean => error instanceof LinkPageError && error.status === 401;

/**
 * A network is linked: tell the integrator and the user. When it replaced an account linked before under another
 * name, the user is told plainly that this is a different account (its predecessor's posts stay with that one).
 */
export function announceLinked(link: LinkState, platform: Network): void {
  link.messenger?.success(platform);
  const identity = (view: SessionView | null) => {
    const row = view?.networks.find((network) => network.platform === platform && network.linked);
    return row ? (row.username ?? row.displayName) : null;
  };
  const before = identity(link.previousView);
  const now = identity(link.view);
  if (before && now && before !== now) return link.setStatus(link.t('linkedDifferent', { network: label(platform), name: now, before }), 'success');
  link.setStatus(link.t('linked', { network: label(platform) }), 'success');
}

/**
 * The failure as the user reads it. A 4xx answer refused what was sent (a wrong app password): trying the same
 * again cannot help, so only other failures (network down, 5xx) say "try again in a moment".
 */
function failureText(link: LinkState, platform: Network, error: unknown): string {
  const refused = error instanceof LinkPageError && error.status >= 400 && error.status < 500;
  return link.t(refused ? 'refused' : 'failed', { network: label(platform), message: messageOf(error) });
}

/** A connection attempt failed: tell the integrator (with the service's code when it gave one) and the user. */
export function reportConnectError(link: LinkState, platform: Network, error: unknown): void {
  const code = error instanceof LinkPageError && error.code ? error.code : ErrorCode.connectFailed;
  link.messenger?.error(code, messageOf(error), platform);
  link.setStatus(failureText(link, platform, error), 'error');
}

/**
 * Called after each session read: reports networks linked out of band (a bot's code), and a sign-in that
 * finished while this page was being reloaded (its window outlived the page that opened it).
 */
export function noticeOutOfBandLinks(link: LinkState, view: SessionView): void {
  if (!link.messenger) return;
  const pending = link.busyPlatform === null ? pendingPlatform() : null;
  if (pending && isNetwork(pending) && isLinked(view, pending)) {
    rememberPendingPlatform(null);
    announceLinked(link, pending);
  }
  const step = link.inlineStep;
  if (step?.method === 'bot' && isLinked(view, step.platform)) {
    link.inlineStep = null;
    announceLinked(link, step.platform);
  }
}

/** The link stopped working: tell the integrator once (when it was working before) and show why. */
export function endLink(link: LinkState, reason: Extract<CancelReason, 'expired' | 'revoked'> | null): void {
  if (link.ended) return;
  link.ended = true;
  link.cancelActiveAttempt?.();
  forgetLinkCredential();
  if (reason) link.messenger?.cancelled(reason);
  const redirect = link.view?.redirect ?? null;
  link.screen = { kind: 'invalid', expired: reason === 'expired', redirect };
  link.update();
}

/** Runs `work` while `platform` is busy (every other button waits), and shows its failure on the page. */
export async function whileBusy(link: LinkState, platform: Network, work: () => Promise<void>): Promise<void> {
  link.busyPlatform = platform;
  link.update();
  try {
    await work();
  } catch (error) {
    link.setStatus(failureText(link, platform, error), 'error');
  } finally {
    link.busyPlatform = null;
    link.update();
  }
}

export async function disconnect(link: LinkState, platform: Network): Promise<void> {
  if (link.busyPlatform || link.ended) return;
  await whileBusy(link, platform, async () => {
    await link.api().disconnect(platform);
    link.messenger?.disconnected(platform);
    await loadView(link);
    link.setStatus(link.t('disconnected', { network: label(platform) }));
  });
}

/** Done / Escape: the user is leaving. The widget treats this as a plain close after a success. */
export function finish(link: LinkState, reason: CancelReason = 'close_button'): void {
  if (link.ended) return;
  const view = link.view;
  link.cancelActiveAttempt?.();
  link.messenger?.cancelled(reason);
  if (link.mode === 'popup') window.close();
  else if (link.mode === 'direct' && view?.redirect) window.location.assign(view.redirect);
}

/** Every second: the countdown, announced to screen readers once a minute near the end, and expiry. */
export function tick(link: LinkState, announcer: HTMLElement): void {
  const view = link.view;
  if (!view || link.ended) return;
  const remaining = link.remainingMs(view);
  if (remaining <= 0) return endLink(link, 'expired');
  const minute = Math.ceil(remaining / 60_000);
  if (minute !== link.lastAnnouncedMinute && (minute <= 2 || link.lastAnnouncedMinute === -1)) {
    link.lastAnnouncedMinute = minute;
    announcer.textContent = link.t('expiresIn', { time: link.texts.formatDuration(remaining) });
  }
  link.update();
}
