/**
 * The link credential (`session` token, or a legacy `jwt`): read from the address bar once, removed from it at
 * once (history.replaceState) so it cannot leak through screenshots, history or the Referer, and kept in memory
 * and sessionStorage so a reload within this window still works. Never localStorage. Storage can throw in
 * third-party frames with storage blocked: then memory (and a reload needing a new link) is the fallback.
 * Storing it waits for a task of its own: the first use of sessionStorage in a new renderer costs 1-20 ms, which
 * the page's first render and its buttons need not wait for.
 */
const STORAGE_KEY = 'social-link-kit:credential';
const PENDING_KEY = 'social-link-kit:pending';
const FRAGMENT_KEY = 'link';

export function takeLinkCredential(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('session') ?? url.searchParams.get('jwt');
  if (fromUrl) {
    url.searchParams.delete('session');
    url.searchParams.delete('jwt');
    window.history.replaceState(null, '', url.pathname + url.search);
    pendingStore = window.setTimeout(() => keepForReload(fromUrl), 0);
    return fromUrl;
  }
  return readStorage(STORAGE_KEY) ?? new URLSearchParams(url.hash.slice(1)).get(FRAGMENT_KEY);
}

/** The credential not stored yet (takeLinkCredential), or null. */
let pendingStore: number | null = null;

function keepForReload(credential: string): void {
  pendingStore = null;
  if (writeStorage(STORAGE_KEY, credential)) return;
  // When storage is blocked (some third-party frames), the fragment keeps it for a reload: a fragment is never
  // sent to a server nor put in a Referer.
  const { pathname, search } = window.location;
  window.history.replaceState(null, '', `${pathname}${search}#${FRAGMENT_KEY}=${encodeURIComponent(credential)}`);
}

export function forgetLinkCredential(): void {
  if (pendingStore !== null) window.clearTimeout(pendingStore);
  pendingStore = null;
  writeStorage(STORAGE_KEY, null);
  writeStorage(PENDING_KEY, null);
  if (window.location.hash) window.history.replaceState(null, '', window.location.pathname + window.location.search);
}

/** The network whose sign-in window is open, so a reload mid-flow can still report its outcome. */
export function rememberPendingPlatform(platform: string | null): void {
  writeStorage(PENDING_KEY, platform);
}

export function pendingPlatform(): string | null {
  return readStorage(PENDING_KEY);
}

function readStorage(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** False when storage is blocked or full. */
function writeStorage(key: string, value: string | null): boolean {
  try {
    if (value === null) window.sessionStorage.removeItem(key);
    else window.sessionStorage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the (non-secret) session id in the address so a reload gets the right `frame-ancestors`. */
export function rememberSessionId(sessionId: string): void {
  const url = new URL(window.location.href);
  if (url.searchParams.get('sid') === sessionId) return;
  url.searchParams.set('sid', sessionId);
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}
