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

/** Creates a session for `mode` at click time; the widget calls this after it opened its window. */
function getUrlFor(mode) {
  return async () => {
    const session = await backend('/api/session', { mode });
    setSession(session.sessionId, `created for ${mode} mode, expires ${new Date(session.expiresAt).toLocaleTimeString()}`);
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

// The composer: text (and one network's own text), networks, schedule, approval, first comment; a live post list.
const NETWORK_NAMES = ['bluesky', 'facebook', 'gmb', 'instagram', 'linkedin', 'pinterest', 'reddit', 'snapchat', 'telegram', 'threads', 'tiktok', 'twitter', 'youtube'];

async function backendSend(path, body) {
  return backend(path, body ?? {});
}

async function refreshComposer() {
  const user = await backend('/api/accounts');
  const fieldset = $('post-platforms');
  fieldset.querySelectorAll('label').forEach((label) => label.remove());
  const override = $('override-platform');
  override.querySelectorAll('option:not([value=""])').forEach((option) => option.remove());
  for (const platform of user.activeSocialAccounts) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = platform;
    box.name = 'platform';
    label.append(box, ` ${platform}`);
    fieldset.append(label);
    override.append(new Option(platform, platform));
  }
  const select = $('sandbox-platform');
  if (select.options.length === 0) for (const name of NETWORK_NAMES) select.append(new Option(name, name));
}

function postLine(post) {
  const item = document.createElement('li');
  const when = post.scheduleDate ? ` for ${new Date(post.scheduleDate).toLocaleString()}` : '';
  const links = post.postIds.map((entry) => `${entry.platform}: ${entry.status}`).join(', ');
  const errors = post.errors.map((entry) => `${entry.platform}: ${entry.code} ${entry.message}`).join('; ');
  item.textContent = `${post.status}${when} — ${post.post.slice(0, 60)} ${links ? `[${links}]` : ''} ${errors ? `(${errors})` : ''}`;
  const actions = { 'awaiting approval': ['approve', 'delete'], scheduled: ['pause', 'delete'], paused: ['unpause', 'delete'], error: post.retried ? ['delete'] : ['retry', 'delete'] }[post.status] ?? (post.status === 'deleted' ? [] : ['delete']);
  for (const action of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action;
    button.addEventListener('click', () => backendSend(`/api/posts/${encodeURIComponent(post.id)}/${action}`).then(refreshPosts, (error) => ($('compose-status').textContent = error.message)));
    item.append(' ', button);
  }
  return item;
}

async function refreshPosts() {
  const { history } = await backend('/api/posts');
  $('posts').replaceChildren(...history.map(postLine));
}

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const platforms = [...document.querySelectorAll('#post-platforms input:checked')].map((box) => box.value);
  const text = $('post-text').value;
  const overridePlatform = $('override-platform').value;
  const body = { post: overridePlatform && $('override-text').value ? { default: text, [overridePlatform]: $('override-text').value } : text, platforms };
  // The service takes only YYYY-MM-DDThh:mm:ssZ.
  if ($('post-schedule').value) body.scheduleDate = new Date($('post-schedule').value).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if ($('post-approval').checked) body.requiresApproval = true;
  if ($('post-comment').value) body.firstComment = { comment: $('post-comment').value };
  try {
    const result = await backendSend('/api/posts', body);
    $('compose-status').textContent = `Post ${result.id}: ${result.status}`;
  } catch (error) {
    $('compose-status').textContent = `Not published: ${error.message}`;
  }
  refreshPosts();
});

$('sandbox-link-button').addEventListener('click', async () => {
  try {
    await backendSend('/api/sandbox-account', { platform: $('sandbox-platform').value });
    await Promise.all([refreshComposer(), refreshAccounts()]);
  } catch (error) {
    $('compose-status').textContent = error.message;
  }
});

backend('/api/feed-url').then(({ url }) => ($('feed-link').href = url), () => {});
refreshComposer().catch(() => {});
refreshPosts().catch(() => {});
setInterval(() => refreshPosts().catch(() => {}), 3000);
