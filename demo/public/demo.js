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

/** The linked accounts, read once and shown twice: in the accounts list and as the composer's networks. */
async function refreshAccounts() {
  const list = $('accounts');
  try {
    const user = await backend('/api/accounts');
    renderComposer(user);
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

/** The composer's networks: one box per linked account (a linked account appears at once, ticks are kept). */
function renderComposer(user) {
  const fieldset = $('post-platforms');
  const ticked = new Set([...fieldset.querySelectorAll('input:checked')].map((box) => box.value));
  fieldset.querySelectorAll('label').forEach((label) => label.remove());
  const override = $('override-platform');
  override.querySelectorAll('option:not([value=""])').forEach((option) => option.remove());
  for (const platform of user.activeSocialAccounts) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = platform;
    box.name = 'platform';
    box.checked = ticked.has(platform);
    label.append(box, ` ${platform}`);
    fieldset.append(label);
    override.append(new Option(platform, platform));
  }
  const select = $('sandbox-platform');
  if (select.options.length === 0) for (const name of NETWORK_NAMES) select.append(new Option(name, name));
}

/**
 * The post's text as the networks show it: the service turns <b>, <strong>, <em>, <i> into styled text, so the list
 * shows them styled, never as raw tags (every other character stays text).
 */
function styledText(text) {
  const fragment = document.createDocumentFragment();
  const open = []; // the styles in force, outermost first
  for (const part of text.split(/(<\/?(?:b|strong|em|i)>)/i)) {
    const tag = /^<(\/?)(b|strong|em|i)>$/i.exec(part);
    if (tag) {
      if (tag[1]) open.pop();
      else open.push(/^(b|strong)$/i.test(tag[2]) ? 'b' : 'i');
      continue;
    }
    if (!part) continue;
    let node = document.createTextNode(part);
    for (const name of [...open].reverse()) {
      const element = document.createElement(name);
      element.append(node);
      node = element;
    }
    fragment.append(node);
  }
  return fragment;
}

/** Where the post went: all networks, or which succeeded and which failed (a partly failed post is not just "error"). */
function outcome(post) {
  const succeeded = post.postIds.filter((entry) => entry.status === 'success').map((entry) => entry.platform);
  const failed = post.errors.map((entry) => `${entry.platform} (${entry.code} ${entry.message})`);
  if (post.status === 'error' && succeeded.length > 0) return `partly published: succeeded on ${succeeded.join(', ')}; failed on ${failed.join('; ')}`;
  const links = post.postIds.map((entry) => `${entry.platform}: ${entry.status}`).join(', ');
  return `${post.status}${links ? ` [${links}]` : ''}${failed.length > 0 ? ` (failed on ${failed.join('; ')})` : ''}`;
}

function postLine(post) {
  const item = document.createElement('li');
  const when = post.scheduleDate ? ` for ${new Date(post.scheduleDate).toLocaleString()}` : '';
  const text = document.createElement('span');
  text.className = 'post-text';
  text.append(styledText(post.post.slice(0, 80)));
  item.append(`${outcome(post)}${when} — `, text);
  const actions = { 'awaiting approval': ['approve', 'delete'], scheduled: ['pause', 'delete'], paused: ['unpause', 'delete'], error: post.retried ? ['delete'] : ['retry', 'delete'] }[post.status] ?? (post.status === 'deleted' ? [] : ['delete']);
  if (post.postIds.some((entry) => entry.status === 'success')) {
    const details = document.createElement('button');
    details.type = 'button';
    details.textContent = 'details';
    details.addEventListener('click', () => showDetails(post, item).catch((error) => ($('compose-status').textContent = error.message)));
    item.append(' ', details);
  }
  for (const action of actions) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = action;
    button.addEventListener('click', () => backendSend(`/api/posts/${encodeURIComponent(post.id)}/${action}`).then(refreshPosts, (error) => ($('compose-status').textContent = error.message)));
    item.append(' ', button);
  }
  return item;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A small line chart of one metric over time (SVG, no library). */
function sparkline(points, metric) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 200 50');
  svg.setAttribute('width', '200');
  svg.setAttribute('height', '50');
  svg.setAttribute('role', 'img');
  const values = points.map((point) => Number(point.analytics[metric] ?? 0));
  const max = Math.max(1, ...values);
  const line = document.createElementNS(SVG, 'polyline');
  line.setAttribute('fill', 'none');
  line.setAttribute('stroke', 'currentColor');
  line.setAttribute('stroke-width', '2');
  line.setAttribute('points', values.map((value, i) => `${values.length === 1 ? 100 : (i * 200) / (values.length - 1)},${48 - (value * 46) / max}`).join(' '));
  svg.append(line);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = `${metric}: ${values.join(' → ')}`;
  svg.append(title);
  return svg;
}

/** The post's page: analytics now and over time per network, its comments, and automation activity on them. */
async function showDetails(post, item) {
  const { analytics, history, comments, activity } = await backend(`/api/posts/${encodeURIComponent(post.id)}/details`);
  item.querySelector('.post-details')?.remove();
  const box = document.createElement('div');
  box.className = 'post-details';
  const networkIds = new Set(post.postIds.map((entry) => entry.id));
  for (const entry of post.postIds.filter((e) => e.status === 'success')) {
    const section = document.createElement('section');
    const heading = document.createElement('h4');
    heading.textContent = entry.platform;
    section.append(heading);
    const now = analytics[entry.platform];
    const metrics = now?.analytics ? Object.entries(now.analytics).filter(([, value]) => typeof value === 'number') : [];
    const summary = document.createElement('p');
    summary.textContent = metrics.length > 0 ? metrics.map(([name, value]) => `${name} ${value}`).join(' · ') : 'No analytics for this network.';
    if (now?.recoveredFrom) summary.textContent += ` (stored data of ${now.recoveredFrom})`;
    if (now?.backfilledFrom) summary.textContent += ` (some from ${now.backfilledFrom})`;
    section.append(summary);
    const points = history[entry.platform] ?? [];
    if (points.length > 0 && metrics.length > 0) section.append(sparkline(points, metrics[0][0]), ` ${metrics[0][0]} over ${points.length} snapshot(s)`);
    const list = document.createElement('ul');
    for (const comment of comments[entry.platform] ?? []) {
      const line = document.createElement('li');
      line.textContent = `${comment.author}: ${comment.comment}${comment.replyTo ? ' (reply)' : ''}`;
      list.append(line);
    }
    if (list.children.length > 0) section.append(list);
    box.append(section);
  }
  const rows = activity.filter((row) => networkIds.has(row.postId));
  if (rows.length > 0) {
    const list = document.createElement('ul');
    for (const row of rows) {
      const line = document.createElement('li');
      const reason = row.actionResults.find((result) => result.errorDetails)?.errorDetails;
      line.textContent = `Automation "${row.automation}" → ${row.commenter}: ${row.status}${reason ? ` (${reason.code} ${reason.message})` : ''}`;
      list.append(line);
    }
    box.append(list);
  }
  item.append(box);
}

async function refreshPosts() {
  const { history } = await backend('/api/posts');
  // An opened post page stays open across the periodic refresh (it is fetched again only on click).
  const open = new Map([...$('posts').querySelectorAll('li[data-post-id]')].map((li) => [li.dataset.postId, li.querySelector('.post-details')]));
  const items = history.map((post) => {
    const item = postLine(post);
    item.dataset.postId = post.id;
    const details = open.get(post.id);
    if (details) item.append(details);
    return item;
  });
  $('posts').replaceChildren(...items);
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
  const mediaUrls = $('post-media').value.split('\n').map((line) => line.trim()).filter(Boolean);
  if (mediaUrls.length > 0) body.mediaUrls = mediaUrls;
  try {
    // The rest of the spec's request (network options, isVideo…) as the integrator's own JSON; the service checks it.
    if ($('post-extra').value.trim()) Object.assign(body, JSON.parse($('post-extra').value));
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
    await refreshAccounts();
  } catch (error) {
    $('compose-status').textContent = error.message;
  }
});

// Media: the sandbox media host (on the service's origin) offers sample files; WebP and HEIC show the conversion
// (instagram, linkedin, tiktok… get a JPEG copy at a signed address, visible in the sandbox feed).
const MEDIA_SAMPLES = ['photo.jpg', 'photo.png', 'photo.webp', 'photo.heic', 'photo.avif', 'video-10s.mp4'];
fetch('/config.json')
  .then((response) => response.json())
  .then(({ serviceOrigin, sandboxTwitterApp }) => {
    for (const name of MEDIA_SAMPLES) $('media-sample').append(new Option(name, `${serviceOrigin}/sandbox/media/${name}`));
    if (sandboxTwitterApp) {
      // X needs the integrator's own developer app on every twitter-bound call; on the sandbox, the sandbox's app.
      $('twitter-app-note').textContent = `X (twitter) posts are signed with the sandbox X developer app: this demo's backend sends API key ${sandboxTwitterApp.apiKey} and API secret ${sandboxTwitterApp.apiSecret} (X-Twitter-OAuth1-Api-Key/-Secret). With real X, your backend sends your own app's keys.`;
      $('twitter-app-note').hidden = false;
    }
  })
  .catch(() => {});
$('media-add-button').addEventListener('click', () => {
  const url = $('media-sample').value;
  if (!url) return;
  const field = $('post-media');
  field.value = field.value.trim() ? `${field.value.trim()}\n${url}` : url;
});

backend('/api/feed-url').then(({ url }) => ($('feed-link').href = url), () => {});
refreshPosts().catch(() => {});
setInterval(() => refreshPosts().catch(() => {}), 3000);

// Load the locale data for times while the page is idle after loading, so no click pays for it.
(window.requestIdleCallback ?? setTimeout)(() => new Date().toLocaleTimeString());
