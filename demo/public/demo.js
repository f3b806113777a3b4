// The demo integrator page. Everything that needs the API key goes through this site's backend (/api/*).
import { open } from '/widget/social-link.js';

const $ = (id) => document.getElementById(id);
let currentSessionId = null;
let nativePoll = null;

async function backend(path, body) {
  const response = await fetch(path, body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(json.message ?? `HTTP ${response.status}`);
  return json;
}

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

async function refreshAccounts() {
  const list = $('accounts');
  try {
    const user = await backend('/api/accounts');
    list.replaceChildren();
    if (user.displayNames.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'No accounts linked yet.' }));
    for (const account of user.displayNames) {
      const item = document.createElement('li');
      const label = document.createElement('span');
      label.textContent = `${account.platform}: ${account.displayName ?? account.username ?? account.id}`;
      const unlink = Object.assign(document.createElement('button'), { type: 'button', className: 'secondary', textContent: `Unlink ${account.platform}` });
      unlink.addEventListener('click', async () => {
        await backend('/api/unlink', { platform: account.platform });
        log('unlink', { platform: account.platform });
        await refreshAccounts();
      });
      item.append(label, unlink);
      list.append(item);
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
};

// Frame mode: the script-tag element, configured through properties.
const frameButton = $('frame-button');
frameButton.getUrl = getUrlFor('frame');
frameButton.checkStatus = checkStatus;
frameButton.addEventListener('social-link-ready', (e) => callbacks.onReady(e.detail));
frameButton.addEventListener('social-link-success', (e) => callbacks.onSuccess(e.detail));
frameButton.addEventListener('social-link-error', (e) => callbacks.onError(e.detail));
frameButton.addEventListener('social-link-cancel', (e) => callbacks.onCancel(e.detail));

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
  nativePoll = setInterval(async () => {
    const session = await checkStatus(sessionId).catch(() => null);
    if (!session) return;
    setSession(sessionId, `native app polling: ${session.state}, completed: ${session.completedNetworks.join(', ') || 'none'}`);
    if (session.completedNetworks.length > seen) {
      seen = session.completedNetworks.length;
      log('native-status', { completedNetworks: session.completedNetworks });
      void refreshAccounts();
    }
    if (session.state !== 'active') clearInterval(nativePoll);
  }, 2000);
});

$('revoke-button').addEventListener('click', async () => {
  if (!currentSessionId) return;
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
void refreshAccounts();

// Load the locale data for times while the page is idle after loading, so no click pays for it.
(window.requestIdleCallback ?? setTimeout)(() => new Date().toLocaleTimeString());
