// The demo's Accounts screen: the link in every mode, the current session, the linked accounts, the event log.
// Everything that needs the API key goes through this site's backend (/api/*).
import { open } from '/widget/social-link.js';
import { $, backend, confirmAction, h } from './dom.js';

let currentSessionId = null;
let nativePoll = null;
/** Called with the user (`/api/accounts`) each time the linked accounts are read: the composer lists them too. */
const accountListeners = [];
export const onAccounts = (listener) => accountListeners.push(listener);

/** Creates a session for `mode` at click time; the widget calls this as soon as it is clicked. */
function getUrlFor(mode) {
  return async () => {
    const session = await backend('/api/session', { mode });
    currentSessionId = session.sessionId;
    // The status line waits until the widget has started loading the link: the first date formatting of a page
    // loads the locale data (15-20 ms), which would otherwise delay the hosted page on every click.
    setTimeout(() => setSession(session.sessionId, `created for ${mode} mode, expires ${new Date(session.expiresAt).toLocaleTimeString()}`));
    return { url: session.url, sessionId: session.sessionId };
  };
}

const checkStatus = (sessionId) => backend(`/api/session/${encodeURIComponent(sessionId ?? currentSessionId)}`);

function setSession(sessionId, text) {
  currentSessionId = sessionId;
  $('session-status').textContent = sessionId ? `${sessionId}: ${text}` : text;
  $('revoke-button').disabled = !sessionId;
}

function log(type, detail) {
  const item = document.createElement('li');
  item.className = `ev-${type}`;
  item.textContent = `${new Date().toLocaleTimeString()} ${type} ${JSON.stringify(detail)}`;
  $('event-log').prepend(item);
}

/** The linked accounts, read once and shown twice: in the accounts list and as the composer's networks. */
export async function refreshAccounts() {
  const list = $('accounts');
  try {
    const user = await backend('/api/accounts');
    for (const listener of accountListeners) listener(user);
    list.replaceChildren();
    if (user.displayNames.length === 0) list.append(h('li', { className: 'empty' }, 'No accounts linked yet: connect one in any mode above, or link a sandbox account.'));
    for (const account of user.displayNames) {
      const unlink = h('button', { type: 'button', className: 'secondary small', ariaLabel: `Unlink ${account.platform}` }, 'Unlink');
      unlink.addEventListener('click', async () => {
        if (!(await confirmAction(`Unlink ${account.platform}? Posts can no longer go to this account until it is linked again.`, 'Unlink'))) return;
        await backend('/api/unlink', { platform: account.platform });
        log('unlink', { platform: account.platform });
        await refreshAccounts();
      });
      list.append(h('li', {}, h('span', { className: 'net' }, `${account.platform}:`), h('span', {}, ` ${account.displayName ?? account.username ?? account.id}`), unlink));
    }
  } catch (error) {
    list.replaceChildren(Object.assign(document.createElement('li'), { textContent: `Could not load accounts: ${error.message}` }));
  }
}

const callbacks = {
  onReady: (d) => log('ready', d),
  onSuccess: (d) => {
    log('success', d);
    void refreshAccounts();
  },
  onError: (d) => log('error', d),
  onCancel: (d) => log('cancel', d),
  // The user disconnected an account on the hosted page: the list here must not go stale.
  onDisconnect: (d) => {
    log('disconnect', d);
    void refreshAccounts();
  },
};

// Frame mode: the script-tag element, configured through properties.
const frameButton = $('frame-button');
frameButton.getUrl = getUrlFor('frame');
frameButton.checkStatus = checkStatus;
frameButton.addEventListener('social-link-ready', (e) => callbacks.onReady(e.detail));
frameButton.addEventListener('social-link-success', (e) => callbacks.onSuccess(e.detail));
frameButton.addEventListener('social-link-error', (e) => callbacks.onError(e.detail));
frameButton.addEventListener('social-link-cancel', (e) => callbacks.onCancel(e.detail));
frameButton.addEventListener('social-link-disconnect', (e) => callbacks.onDisconnect(e.detail));

// Popup mode: our own button; open() must run inside the click, before any await.
$('popup-button').addEventListener('click', () => {
  open({ mode: 'popup', getUrl: getUrlFor('popup'), checkStatus, closeOnSuccess: false, ...callbacks });
});

// Direct mode: navigate this tab; the hosted page sends the user back to /?returned=1.
$('direct-button').addEventListener('click', async () => {
  const { url, sessionId } = await getUrlFor('direct')();
  sessionStorage.setItem('demo-direct-session', sessionId);
  location.assign(url);
});

// Simulated native app: the "system browser" is a new tab; the app polls the session read.
$('native-button').addEventListener('click', async () => {
  const tab = window.open('about:blank', '_blank');
  const { url, sessionId } = await getUrlFor('native')();
  if (tab) tab.location.href = url;
  else log('error', { reason: 'popup_blocked', message: 'Allow popups to simulate the system browser.' });
  clearInterval(nativePoll);
  let seen = 0;
  const poll = setInterval(async () => {
    const session = await checkStatus(sessionId).catch(() => null);
    // Stopped meanwhile (the app's return arrived, or a new session): this answer is not shown.
    if (!session || nativePoll !== poll) return;
    setSession(sessionId, `native app polling: ${session.state}, completed: ${session.completedNetworks.join(', ') || 'none'}`);
    if (session.completedNetworks.length > seen) {
      seen = session.completedNetworks.length;
      log('native-status', { completedNetworks: session.completedNetworks });
      void refreshAccounts();
    }
    if (session.state !== 'active') clearInterval(poll);
  }, 2000);
  nativePoll = poll;
});

/** The simulated app's return address (demo/server.ts creates native sessions with it as `origin`). */
const APP_RETURN_PREFIX = 'com.socialkit.demo:/linked';

/**
 * The simulated app receives its custom-scheme return (`…?event=&sessionId=&platform=`), as the operating system
 * would deliver it: it shows the address and its parameters, then asks its backend, the source of truth, what the
 * session really completed (the address alone proves nothing: anyone can open it).
 */
async function receiveAppReturn(address) {
  const url = (() => {
    try {
      return new URL(address);
    } catch {
      return null;
    }
  })();
  if (!url || `${url.protocol}${url.pathname}` !== APP_RETURN_PREFIX) {
    log('error', { reason: 'not_our_return', message: `Not ${APP_RETURN_PREFIX}: ${address}` });
    return;
  }
  const params = Object.fromEntries(url.searchParams);
  $('app-return-url').textContent = url.href;
  $('app-return-params').replaceChildren(
    ...Object.entries(params).flatMap(([name, value]) => [
      Object.assign(document.createElement('dt'), { textContent: name }),
      Object.assign(document.createElement('dd'), { textContent: value }),
    ]),
  );
  $('app-return').hidden = false;
  log('native-return', params);
  // The app has its answer: polling stops, so a late poll does not write over what the return shows.
  clearInterval(nativePoll);
  nativePoll = null;
  if (params.sessionId) {
    const session = await checkStatus(params.sessionId).catch(() => null);
    if (session) setSession(params.sessionId, `app return ${params.event ?? ''}: session ${session.state}, completed: ${session.completedNetworks.join(', ') || 'none'}`);
  }
}

$('app-return-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void receiveAppReturn($('app-return-input').value.trim());
});

$('revoke-button').addEventListener('click', async () => {
  if (!currentSessionId) return;
  if (!(await confirmAction('Revoke this link session? Its link stops working at once.', 'Revoke'))) return;
  const result = await backend(`/api/session/${encodeURIComponent(currentSessionId)}/revoke`, {});
  log('revoked', result);
  setSession(currentSessionId, `revoked at ${new Date(result.revokedAt).toLocaleTimeString()}`);
  $('revoke-button').disabled = true;
});
$('refresh-button').addEventListener('click', () => void refreshAccounts());

// Coming back from direct mode: the server is the source of truth, so read the session.
if (new URLSearchParams(location.search).has('returned')) {
  const sessionId = sessionStorage.getItem('demo-direct-session');
  history.replaceState(null, '', '/');
  if (sessionId) {
    const session = await checkStatus(sessionId).catch(() => null);
    if (session) {
      setSession(sessionId, `returned from direct mode: completed ${session.completedNetworks.join(', ') || 'nothing'}`);
      log('direct-return', { sessionId, completedNetworks: session.completedNetworks, state: session.state });
    }
  }
}

// The sandbox shortcut: a linked sandbox account without the hosted page (the tests and a quick look use it).
const SANDBOX_NETWORKS = ['bluesky', 'facebook', 'gmb', 'instagram', 'linkedin', 'pinterest', 'reddit', 'snapchat', 'telegram', 'threads', 'tiktok', 'twitter', 'youtube'];
for (const name of SANDBOX_NETWORKS) $('sandbox-platform').append(new Option(name, name));
$('sandbox-link-button').addEventListener('click', async () => {
  try {
    await backend('/api/sandbox-account', { platform: $('sandbox-platform').value });
    await refreshAccounts();
  } catch (error) {
    log('error', { reason: 'sandbox_link', message: error.message });
  }
});
