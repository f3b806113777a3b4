/**
 * The hosted linking page: loads the session with the link credential, lists the allowed networks with their
 * linked state, runs each connection in a popup, and reports every outcome to the integrator's page exactly
 * once per attempt. The server is the source of truth: after a popup ends, the page re-reads the session.
 */
import { html, nothing, render } from 'lit';
import { NETWORK_LABELS } from '../../src/protocol/constants.js';
import type { CancelReason } from '../../src/protocol/messages.js';
import type { Network } from '../../src/protocol/networks.js';
import type { SessionView, SessionViewNetwork } from '../../src/protocol/resources.js';
import { createMessenger, detectMode, type Messenger } from './integrator-messenger.js';
import { LinkPageError, createLinkApi, type LinkApi } from './link-api.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { forgetLinkCredential, pendingPlatform, rememberPendingPlatform, rememberSessionId, takeLinkCredential } from './link-credential.js';
import { openOAuthWindow, waitForOAuthResult } from './oauth-window.js';
import { formatDuration, t } from './texts.js';

type Tone = 'info' | 'success' | 'error';
type Screen = { kind: 'loading' } | { kind: 'ready'; view: SessionView } | { kind: 'invalid'; expired: boolean } | { kind: 'failed' };

const REVALIDATE_MS = 5000;
/** Embedded web views and in-app browsers, where Google and others refuse OAuth (403 disallowed_useragent). */
const IN_APP_BROWSER = /; wv\)|FBAN|FBAV|Instagram|Line\/|GSA\/|Twitter|TikTok|Snapchat|LinkedInApp|MicroMessenger/;
const mode = detectMode();
const root = document.getElementById('app')!;
const announcer = document.getElementById('announcer')!;

let screen: Screen = { kind: 'loading' };
let status: { text: string; tone: Tone } | null = null;
let busyPlatform: Network | null = null;
let cancelActiveAttempt: (() => void) | null = null;
let clockOffset = 0;
let ended = false;
let api: LinkApi | null = null;
let messenger: Messenger | null = null;
let lastAnnouncedMinute = -1;
/** The network whose inline step (bluesky form, telegram code) is open. */
let inlineStep: { platform: 'bluesky' } | { platform: 'telegram'; code: string; bot: string; deepLink: string } | null = null;

const label = (platform: Network) => NETWORK_LABELS[platform];
const remainingMs = (view: SessionView) => Date.parse(view.expiresAt) - (Date.now() + clockOffset);

function setStatus(text: string, tone: Tone = 'info') {
  status = { text, tone };
  update();
}

let firstRender = true;
function update() {
  // The static "Loading…" placeholder is not lit's: clear it once so render() owns the container.
  if (firstRender) root.replaceChildren();
  firstRender = false;
  render(template(), root);
}

function template() {
  switch (screen.kind) {
    case 'loading':
      return html`<p class="status" role="status">Loading…</p>`;
    case 'failed':
      return html`<h1>${t('loadFailed')}</h1>
        <button type="button" @click=${() => location.reload()}>${t('reload')}</button>`;
    case 'invalid':
      return html`<section class="notice" aria-labelledby="notice-title">
        <h1 id="notice-title">${screen.expired ? t('expiredTitle') : t('invalidTitle')}</h1>
        <p>${t('invalidBody')}</p>
      </section>`;
    case 'ready':
      return readyTemplate(screen.view);
  }
}

function readyTemplate(view: SessionView) {
  const remaining = remainingMs(view);
  return html`<header>
      <h1>${t('heading')}</h1>
      <p class="subtitle">${t('subtitle', { title: view.title })}</p>
      <p class="countdown ${remaining < 60_000 ? 'soon' : ''}">
        ${t(remaining < 60_000 ? 'expiresSoon' : 'expiresIn', { time: formatDuration(remaining) })}
      </p>
    </header>
    ${IN_APP_BROWSER.test(navigator.userAgent) ? html`<p class="message info" data-webview>${t('webviewNotice')}</p>` : nothing}
    <div role="status" aria-live="polite">${status ? html`<p class="message ${status.tone}">${status.text}</p>` : nothing}</div>
    <ul class="networks">
      ${view.networks.map((network) => networkTemplate(network))}
    </ul>
    <footer>
      <button type="button" class="secondary" @click=${() => finish()}>${mode === 'direct' && view.redirect ? t('backToApp') : t('done')}</button>
    </footer>`;
}

function networkTemplate(network: SessionViewNetwork) {
  const name = label(network.platform);
  const busy = busyPlatform === network.platform;
  return html`<li class="network ${network.linked ? 'linked' : ''}" data-platform=${network.platform}>
    <span class="name">${name}</span>
    <span class="state">
      ${network.linked
        ? network.displayName || network.username
          ? t('connectedAs', { name: network.displayName ?? network.username ?? '' })
          : t('connected')
        : t('notConnected')}
    </span>
    ${network.linked
      ? html`<button type="button" class="secondary" aria-label=${t('disconnectLabel', { network: name })}
          ?disabled=${busyPlatform !== null} @click=${() => disconnect(network.platform)}>${t('disconnect')}</button>`
      : html`<button type="button" aria-label=${t('connectLabel', { network: name })} aria-busy=${busy ? 'true' : 'false'}
          ?disabled=${busyPlatform !== null} @click=${() => startConnection(network)}>${busy ? '…' : t('connect')}</button>`}
    ${inlineStep?.platform === network.platform && !network.linked ? inlineTemplate() : nothing}
  </li>`;
}

function inlineTemplate() {
  if (inlineStep?.platform === 'bluesky') {
    return html`<form class="inline" @submit=${submitBluesky} aria-label=${t('credentialsTitle')}>
      <p class="hint">${t('appPasswordHint')}</p>
      <label>${t('handle')} <input name="handle" autocomplete="username" required placeholder="name.bsky.social" /></label>
      <label>${t('appPassword')} <input name="appPassword" type="password" autocomplete="current-password" required /></label>
      <div class="actions">
        <button type="submit" ?disabled=${busyPlatform !== null}>${t('connect')}</button>
        <button type="button" class="secondary" @click=${() => ((inlineStep = null), update())}>${t('cancel')}</button>
      </div>
    </form>`;
  }
  if (inlineStep?.platform === 'telegram') {
    return html`<div class="inline">
      <p>${t('telegramHint', { bot: `@${inlineStep.bot}` })}</p>
      <p class="code" aria-label="Code">${inlineStep.code}</p>
      <p><a href=${inlineStep.deepLink} target="_blank" rel="noopener noreferrer">${t('telegramOpen')}</a></p>
      <p class="hint" role="status">${t('telegramWaiting')}</p>
    </div>`;
  }
  return nothing;
}

function startConnection(network: SessionViewNetwork) {
  if (network.method === 'oauth') return connect(network.platform);
  if (network.method === 'credentials') {
    inlineStep = { platform: 'bluesky' };
    update();
    root.querySelector<HTMLInputElement>('input[name=handle]')?.focus();
    return;
  }
  void startTelegram();
}

async function submitBluesky(event: SubmitEvent) {
  event.preventDefault();
  const form = event.currentTarget as HTMLFormElement;
  const data = new FormData(form);
  busyPlatform = 'bluesky';
  setStatus(t('saving', { network: label('bluesky') }));
  try {
    await api!.connectBluesky(String(data.get('handle') ?? ''), String(data.get('appPassword') ?? ''));
    inlineStep = null;
    await loadView();
    messenger?.success('bluesky');
    setStatus(t('linked', { network: label('bluesky') }), 'success');
  } catch (error) {
    if (error instanceof LinkPageError && error.status === 401) return void (await loadView());
    const message = error instanceof Error ? error.message : String(error);
    messenger?.error(error instanceof LinkPageError && error.code ? error.code : 513, message, 'bluesky');
    setStatus(t('failed', { network: label('bluesky'), message }), 'error');
  } finally {
    busyPlatform = null;
    update();
  }
}

/** Telegram completes out of band: show the code, then watch the session until the bot has linked the chat. */
async function startTelegram() {
  busyPlatform = 'telegram';
  update();
  try {
    const started = await api!.connectTelegram();
    inlineStep = { platform: 'telegram', code: started.code, bot: started.botUsername, deepLink: started.deepLink };
    setStatus(t('telegramWaiting'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    setStatus(t('failed', { network: label('telegram'), message }), 'error');
  } finally {
    busyPlatform = null;
    update();
  }
}

/**
 * Called after each session read: reports networks linked out of band (telegram), and a sign-in that finished
 * while this page was being reloaded (its window outlived the page that opened it).
 */
function noticeOutOfBandLinks(view: SessionView) {
  if (!messenger) return;
  const pending = busyPlatform === null ? pendingPlatform() : null;
  if (pending && view.networks.some((n) => n.platform === pending && n.linked)) {
    rememberPendingPlatform(null);
    messenger?.success(pending as Network);
    setStatus(t('linked', { network: label(pending as Network) }), 'success');
  }
  if (inlineStep?.platform !== 'telegram') return;
  if (view.networks.some((n) => n.platform === 'telegram' && n.linked)) {
    inlineStep = null;
    messenger?.success('telegram');
    setStatus(t('linked', { network: label('telegram') }), 'success');
  }
}

async function loadView(): Promise<SessionView | null> {
  try {
    const view = await api!.view();
    clockOffset = Date.parse(view.serverTime) - Date.now();
    screen = { kind: 'ready', view };
    noticeOutOfBandLinks(view);
    update();
    return view;
  } catch (error) {
    if (error instanceof LinkPageError && error.status === 401) {
      const known = screen.kind === 'ready' ? screen.view : null;
      endLink(known && remainingMs(known) <= 0 ? 'expired' : known ? 'revoked' : null);
    } else if (screen.kind === 'loading') {
      screen = { kind: 'failed' };
      update();
    }
    return null;
  }
}

/** The link stopped working: tell the integrator once (when it was working before) and show why. */
function endLink(reason: Extract<CancelReason, 'expired' | 'revoked'> | null) {
  if (ended) return;
  ended = true;
  cancelActiveAttempt?.();
  forgetLinkCredential();
  if (reason) messenger?.cancelled(reason);
  screen = { kind: 'invalid', expired: reason === 'expired' };
  update();
}

/** Synchronous up to window.open: the popup must open inside the click. */
function connect(platform: Network) {
  if (busyPlatform || ended) return;
  const popup = openOAuthWindow();
  if (!popup) {
    setStatus(t('popupBlocked', { network: label(platform) }), 'error');
    return;
  }
  busyPlatform = platform;
  rememberPendingPlatform(platform);
  setStatus(t('opening', { network: label(platform) }));
  void runConnection(platform, popup).finally(() => {
    busyPlatform = null;
    cancelActiveAttempt = null;
    rememberPendingPlatform(null);
    update();
  });
}

async function runConnection(platform: Network, popup: Window) {
  const name = label(platform);
  let startUrl: string;
  try {
    ({ startUrl } = await api!.startConnect(platform));
  } catch (error) {
    popup.close();
    if (error instanceof LinkPageError && error.status === 401) return void (await loadView());
    const message = error instanceof LinkPageError ? error.message : String(error);
    messenger?.error(error instanceof LinkPageError && error.code ? error.code : 513, message, platform);
    return setStatus(t('failed', { network: name, message }), 'error');
  }
  popup.location.href = startUrl;
  setStatus(t('waiting', { network: name }));
  const attempt = waitForOAuthResult(popup, platform);
  cancelActiveAttempt = attempt.cancel;
  const result = await attempt.result;
  if (ended) return;

  if (result.outcome === 'cancelled') {
    messenger?.cancelled('denied', platform);
    return setStatus(t('denied', { network: name }), 'error');
  }
  if (result.outcome === 'error' && result.code === ErrorCode.linkInvalid) {
    // 501 never travels as a message (spec 6.4): the session read ends the link with connect:cancelled.
    return void (await loadView());
  }
  if (result.outcome === 'error') {
    messenger?.error(result.code, result.message, platform);
    return setStatus(t('failed', { network: name, message: result.message }), 'error');
  }
  // Success or a silent close: the server says whether the account was stored.
  setStatus(t('saving', { network: name }));
  const view = await loadView();
  if (!view) return;
  if (view.networks.some((n) => n.platform === platform && n.linked) && result.outcome === 'success') {
    messenger?.success(platform);
    return setStatus(t('linked', { network: name }), 'success');
  }
  if (result.outcome === 'closed' && view.completedNetworks.includes(platform) && view.networks.some((n) => n.platform === platform && n.linked)) {
    messenger?.success(platform);
    return setStatus(t('linked', { network: name }), 'success');
  }
  messenger?.cancelled('popup_closed', platform);
  setStatus(t('popupClosed', { network: name }), 'error');
}

async function disconnect(platform: Network) {
  if (busyPlatform || ended) return;
  busyPlatform = platform;
  update();
  try {
    await api!.disconnect(platform);
    await loadView();
    setStatus(t('disconnected', { network: label(platform) }));
  } catch (error) {
    setStatus(t('failed', { network: label(platform), message: error instanceof Error ? error.message : String(error) }), 'error');
  } finally {
    busyPlatform = null;
    update();
  }
}

/** Done / Escape: the user is leaving. The widget treats this as a plain close after a success. */
function finish(reason: CancelReason = 'close_button') {
  if (ended) return;
  const view = screen.kind === 'ready' ? screen.view : null;
  cancelActiveAttempt?.();
  messenger?.cancelled(reason);
  if (mode === 'popup') window.close();
  else if (mode === 'direct' && view?.redirect) window.location.assign(view.redirect);
}

function tick() {
  if (screen.kind !== 'ready' || ended) return;
  const remaining = remainingMs(screen.view);
  if (remaining <= 0) return endLink('expired');
  // Announce the remaining time once a minute, not every second.
  const minute = Math.ceil(remaining / 60_000);
  if (minute !== lastAnnouncedMinute && (minute <= 2 || lastAnnouncedMinute === -1)) {
    lastAnnouncedMinute = minute;
    announcer.textContent = t('expiresIn', { time: formatDuration(remaining) });
  }
  update();
}

async function start() {
  const credential = takeLinkCredential();
  if (!credential) {
    screen = { kind: 'invalid', expired: false };
    return update();
  }
  api = createLinkApi(credential);
  const view = await loadView();
  if (!view) return;
  rememberSessionId(view.sessionId);
  messenger = createMessenger(view.sessionId, view.origin, mode);
  messenger.ready();
  noticeOutOfBandLinks(view);
  window.setInterval(tick, 1000);
  window.setInterval(() => {
    if (!ended && !document.hidden && busyPlatform === null) void loadView();
  }, REVALIDATE_MS);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && mode !== 'direct') finish('escape');
  });
}

void start();
