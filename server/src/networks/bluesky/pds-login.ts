/**
 * @module
 * bluesky links with a handle and an app password, checked against the account's PDS with
 * com.atproto.server.createSession. `BLUESKY_PDS_URL` picks the server (default https://bsky.social, the entryway
 * for accounts hosted by Bluesky); in the sandbox it is the embedded sandbox PDS. The password is sent once to the
 * PDS and never stored or logged; only the PDS session tokens are kept, encrypted.
 */
import type { GuardedFetch } from '../../core/guarded-fetch.js';

const TIMEOUT_MS = 15_000;

export interface BlueskySession {
  did: string;
  handle: string;
  accessJwt: string;
  refreshJwt: string;
}

export class BlueskyLoginError extends Error {
  readonly kind: 'credentials' | 'unreachable';
  constructor(kind: 'credentials' | 'unreachable', message: string) {
    super(message);
    this.name = 'BlueskyLoginError';
    this.kind = kind;
  }
}

export async function createBlueskySession(fetch: GuardedFetch, pdsUrl: string, handle: string, appPassword: string): Promise<BlueskySession> {
  let response: Response;
  try {
    response = await fetch(`${pdsUrl.replace(/\/$/, '')}/xrpc/com.atproto.server.createSession`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: handle, password: appPassword }),
      timeoutMs: TIMEOUT_MS,
    });
  } catch {
    throw new BlueskyLoginError('unreachable', 'The Bluesky server could not be reached. Try again.');
  }
  const json = (await response.json().catch(() => ({}))) as Partial<BlueskySession> & { error?: string };
  if (response.status === 401 || json.error === 'AuthenticationRequired' || json.error === 'AuthFactorTokenRequired') {
    throw new BlueskyLoginError('credentials', 'The handle or app password is not correct.');
  }
  if (!response.ok || typeof json.did !== 'string' || typeof json.accessJwt !== 'string' || typeof json.refreshJwt !== 'string') {
    throw new BlueskyLoginError('unreachable', `The Bluesky server answered HTTP ${response.status}.`);
  }
  return { did: json.did, handle: json.handle ?? handle, accessJwt: json.accessJwt, refreshJwt: json.refreshJwt };
}
