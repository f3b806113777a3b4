/**
 * The hosted page's calls to the service, authenticated by the link credential. Same origin only.
 */
import type { SessionView } from '../../src/protocol/resources.js';

export class LinkPageError extends Error {
  readonly status: number;
  readonly code: number | null;
  constructor(status: number, code: number | null, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Longer than the service's own 15 s limit on network calls (OAuth, bluesky), so its answer wins when it has one. */
const REQUEST_TIMEOUT_MS = 25_000;

export function createLinkApi(credential: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`/api/link${path}`, {
        method,
        headers: { Authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      // Offline, or no answer in time: the page shows its "could not load" or per-network failure state.
      throw new LinkPageError(0, null, 'network');
    }
    const json = (await response.json().catch(() => ({}))) as { code?: number; message?: string };
    if (!response.ok) throw new LinkPageError(response.status, json.code ?? null, json.message ?? `HTTP ${response.status}`);
    return json as T;
  }
  return {
    view: () => call<SessionView>('GET', '/session'),
    startConnect: (platform: string) => call<{ startUrl: string; sandbox: boolean }>('POST', `/connect/${platform}`),
    disconnect: (platform: string) => call<{ removed: boolean }>('DELETE', `/accounts/${platform}`),
    connectBluesky: (handle: string, appPassword: string) => call<{ displayName: string }>('POST', '/connect/bluesky', { handle, appPassword }),
    connectTelegram: () => call<{ code: string; botUsername: string; deepLink: string; expiresAt: string }>('POST', '/connect/telegram'),
  };
}
export type LinkApi = ReturnType<typeof createLinkApi>;
