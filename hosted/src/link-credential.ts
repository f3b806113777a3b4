/**
 * The link credential (`session` token, or a legacy `jwt`): read from the address bar once, removed from it at
 * once (history.replaceState) so it cannot leak through screenshots, history or the Referer, and kept in memory
 * and sessionStorage so a reload within this window still works. Never localStorage. Storage can throw in
 * third-party frames with storage blocked: then memory (and a reload needing a new link) is the fallback.
 */
const STORAGE_KEY = 'social-link-kit:credential';

export function takeLinkCredential(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('session') ?? url.searchParams.get('jwt');
  if (fromUrl) {
    url.searchParams.delete('session');
    url.searchParams.delete('jwt');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    try {
      window.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    } catch {
      // Storage blocked: the credential lives in memory only.
    }
    return fromUrl;
  }
  try {
    return window.sessionStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function forgetLinkCredential(): void {
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing stored.
  }
}

/** Keeps the (non-secret) session id in the address so a reload gets the right `frame-ancestors`. */
export function rememberSessionId(sessionId: string): void {
  const url = new URL(window.location.href);
  if (url.searchParams.get('sid') === sessionId) return;
  url.searchParams.set('sid', sessionId);
  window.history.replaceState(null, '', url.pathname + url.search + url.hash);
}
