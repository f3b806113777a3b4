// Small DOM helpers shared by the demo's screens: the page is plain DOM (no framework), as it always was.

export const $ = (id) => document.getElementById(id);

/** `h('p', {className: 'x'}, 'text', child)`: an element with properties (`on<event>` as listeners) and children. */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'dataset') Object.assign(element.dataset, value);
    else if (name in element && !name.includes('-')) element[name] = value;
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** JSON from the demo's backend (which holds the API key); an error answer throws with its message. */
export async function backend(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const json = await response.json();
  if (!response.ok || json.status === 'error') throw Object.assign(new Error(json.message ?? `HTTP ${response.status}`), { answer: json });
  return json;
}

/**
 * Asks before a destructive action, in a modal dialog (focus moves into it, Escape cancels, focus returns).
 * Resolves true only when the user confirms.
 */
export function confirmAction(question, confirmLabel) {
  const dialog = $('confirm-dialog');
  $('confirm-text').textContent = question;
  $('confirm-ok').textContent = confirmLabel;
  dialog.returnValue = '';
  dialog.showModal();
  $('confirm-cancel').focus();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true }));
}

/**
 * The post's text as the networks show it: the service turns <b>, <strong>, <em>, <i> into styled text, so the demo
 * shows them styled, never as raw tags (every other character stays text).
 */
export function styledText(text) {
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
    for (const name of [...open].reverse()) node = h(name, {}, node);
    fragment.append(node);
  }
  return fragment;
}

/** The user's own time zone (the browser's), e.g. `Europe/Berlin`. */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

const localFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
const utcFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'UTC', hourCycle: 'h23' });

/** `Fri 27 Nov, 23:30 (Europe/Berlin) · 22:30 UTC`: the user's time, and the UTC the service stores. */
export function localAndUtc(date) {
  return `${localFormat.format(date)} (${timeZone()}) · ${utcFormat.format(date)} UTC`;
}
export const localTime = (date) => localFormat.format(date);

/** What a post's status means to a user: a post that reached 3 of 4 networks is "partly published", not "error". */
export function statusLabel(post) {
  const succeeded = post.postIds.some((entry) => entry.status === 'success');
  if (post.status === 'error') return succeeded ? 'partly published' : 'failed';
  if (post.status === 'success') return 'published';
  return post.status;
}
