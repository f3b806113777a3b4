/**
 * Connect method `oauth`: the network's sign-in in a popup. The service answers the start with the popup's
 * address; the popup reports its outcome, and the session read decides whether the account was stored.
 */
import { ErrorCode } from '../../../src/protocol/error-codes.js';
import type { Network } from '../../../src/protocol/networks.js';
import { rememberPendingPlatform } from '../link-credential.js';
import { openOAuthWindow, waitForOAuthResult } from '../oauth-window.js';
import { announceLinked, isLinkRefused, loadView, reportConnectError } from '../session.js';
import { api, isLinked, label, page, setStatus, update } from '../state.js';
import { t } from '../texts.js';

/** Synchronous up to window.open: the popup must open inside the click. */
export function connectWithPopup(platform: Network): void {
  if (page.busyPlatform || page.ended) return;
  const popup = openOAuthWindow();
  if (!popup) {
    setStatus(t('popupBlocked', { network: label(platform) }), 'error');
    return;
  }
  page.busyPlatform = platform;
  rememberPendingPlatform(platform);
  setStatus(t('opening', { network: label(platform) }));
  void runSignIn(platform, popup).finally(() => {
    page.busyPlatform = null;
    page.cancelActiveAttempt = null;
    rememberPendingPlatform(null);
    update();
  });
}

async function runSignIn(platform: Network, popup: Window): Promise<void> {
  const name = label(platform);
  let startUrl: string;
  try {
    ({ startUrl } = await api().startConnect(platform));
  } catch (error) {
    popup.close();
    if (isLinkRefused(error)) return void (await loadView());
    return reportConnectError(platform, error);
  }
  popup.location.href = startUrl;
  setStatus(t('waiting', { network: name }));
  const attempt = waitForOAuthResult(popup, platform);
  page.cancelActiveAttempt = attempt.cancel;
  const result = await attempt.result;
  if (page.ended) return;

  if (result.outcome === 'cancelled') {
    page.messenger?.cancelled('denied', platform);
    return setStatus(t('denied', { network: name }), 'error');
  }
  if (result.outcome === 'error' && result.code === ErrorCode.linkInvalid) {
    // 501 never travels as a message (spec 6.4): the session read ends the link with connect:cancelled.
    return void (await loadView());
  }
  if (result.outcome === 'error') {
    page.messenger?.error(result.code, result.message, platform);
    return setStatus(t('failed', { network: name, message: result.message }), 'error');
  }
  // Success or a silent close: the server says whether the account was stored. A silent close counts only
  // when this session completed the network, not when the account was linked before.
  setStatus(t('saving', { network: name }));
  const view = await loadView();
  if (!view) return;
  const linkedNow = result.outcome === 'success' || view.completedNetworks.includes(platform);
  if (linkedNow && isLinked(view, platform)) return announceLinked(platform);
  page.messenger?.cancelled('popup_closed', platform);
  setStatus(t('popupClosed', { network: name }), 'error');
}
