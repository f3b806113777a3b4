/**
 * Connect method `oauth`: the network's sign-in in a popup. The service answers the start with the popup's
 * address; the popup reports its outcome, and the session read decides whether the account was stored.
 */
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { rememberPendingPlatform } from '../link-credential.js';
import { isLinked, label, type LinkState } from '../link-state.js';
import { openOAuthWindow, waitForOAuthResult } from '../oauth-window.js';
import { announceLinked, isLinkRefused, loadView, reportConnectError } from '../session.js';

/** Synchronous up to window.open: the popup must open inside the click. */
export function connectWithPopup(link: LinkState, platform: Network): void {
  if (link.busyPlatform || link.ended) return;
  const popup = openOAuthWindow();
  if (!popup) {
    link.setStatus(link.t('popupBlocked', { network: label(platform) }), 'error');
    return;
  }
  link.busyPlatform = platform;
  rememberPendingPlatform(platform);
  link.setStatus(link.t('opening', { network: label(platform) }));
  void runSignIn(link, platform, popup).finally(() => {
    link.busyPlatform = null;
    link.cancelActiveAttempt = null;
    rememberPendingPlatform(null);
    link.update();
  });
}

async function runSignIn(link: LinkState, platform: Network, popup: Window): Promise<void> {
  const name = label(platform);
  let startUrl: string;
  try {
    ({ startUrl } = await link.api().startConnect(platform));
  } catch (error) {
    popup.close();
    if (isLinkRefused(error)) return void (await loadView(link));
    return reportConnectError(link, platform, error);
  }
  popup.location.href = startUrl;
  link.setStatus(link.t('waiting', { network: name }));
  const attempt = waitForOAuthResult(popup, platform);
  link.cancelActiveAttempt = attempt.cancel;
  const result = await attempt.result;
  if (link.ended) return;

  if (result.outcome === 'cancelled') {
    link.messenger?.cancelled('denied', platform);
    return link.setStatus(link.t('denied', { network: name }), 'error');
  }
  if (result.outcome === 'error' && result.code === ErrorCode.linkInvalid) {
    // 501 never travels as a message (spec 6.4): the session read ends the link with connect:cancelled.
    return void (await loadView(link));
  }
  if (result.outcome === 'error') {
    link.messenger?.error(result.code, result.message, platform);
    return link.setStatus(link.t('failed', { network: name, message: result.message }), 'error');
  }
  // Success or a silent close: the server says whether the account was stored. A silent close counts only
  // when this session completed the network, not when the account was linked before.
  link.setStatus(link.t('saving', { network: name }));
  const view = await loadView(link);
  if (!view) return;
  const linkedNow = result.outcome === 'success' || view.completedNetworks.includes(platform);
  if (linkedNow && isLinked(view, platform)) return announceLinked(link, platform);
  link.messenger?.cancelled('popup_closed', platform);
  link.setStatus(link.t('popupClosed', { network: name }), 'error');
}
