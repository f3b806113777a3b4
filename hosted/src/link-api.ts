/**
 * The hosted page's calls to the service, authenticated by the link credential. Same origin only. Every answer
 * is checked against its protocol schema before the page uses it.
 */
import type { z } from 'zod/mini';
import type { CredentialsConnectRequest } from '@social-link-kit/protocol/hosted-api.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { EMBED_MODE_HEADER, type EmbedMode } from '@social-link-kit/protocol/constants.js';
import { schemas, type Schemas } from './schemas.js';

export class LinkPageError extends Error {
  override readonly name = 'LinkPageError';
  readonly status: number;
  readonly code: number | null;
  constructor(status: number, code: number | null, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.code = code;
  }
}

/** The text to show for a failure of any kind. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Longer than the service's own 15 s limit on network calls (OAuth, bluesky), so its answer wins when it has one. */
const REQUEST_TIMEOUT_MS = 25_000;

/** `embed`: how the widget shows the page (sent as EMBED_MODE_HEADER: the service holds it to the max-pack rule). */
export function createLinkApi(credential: string, embed: EmbedMode | null = null) {
  async function call<S extends z.ZodMiniType>(pick: (loaded: Schemas) => S, method: string, path: string, body?: unknown): Promise<z.output<S>> {
    // Loaded while the request is under way, not before it.
    const loading = schemas();
    let response: Response;
    try {
      response = await fetch(`/api/link${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${credential}`,
          ...(embed && { [EMBED_MODE_HEADER]: embed }),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      // Offline, or no answer in time: the page shows its "could not load" or per-network failure state.
      throw new LinkPageError(0, null, 'network', { cause: error });
    }
    const json: unknown = await response.json().catch(() => ({}));
    const loaded = await loading.catch((error: unknown) => {
      throw new LinkPageError(0, null, 'network', { cause: error });
    });
    if (!response.ok) {
      const envelope = loaded.LinkApiErrorFields.safeParse(json);
      throw envelope.success
        ? new LinkPageError(response.status, envelope.data.code, envelope.data.message)
        : new LinkPageError(response.status, null, `HTTP ${response.status}`);
    }
    const answer = pick(loaded).safeParse(json);
    if (!answer.success) throw new LinkPageError(response.status, null, 'unexpected answer', { cause: answer.error });
    return answer.data;
  }
  return {
    view: () => call((s) => s.SessionView, 'GET', '/session'),
    startConnect: (platform: Network) => call((s) => s.StartConnectResponse, 'POST', `/connect/${platform}`),
    connectWithCredentials: (platform: Network, credentials: CredentialsConnectRequest) =>
      call((s) => s.CredentialsConnectResponse, 'POST', `/connect/${platform}`, credentials),
    requestBotCode: (platform: Network) => call((s) => s.BotCodeResponse, 'POST', `/connect/${platform}`),
    disconnect: (platform: Network) => call((s) => s.DisconnectResponse, 'DELETE', `/accounts/${platform}`),
  };
}
export type LinkApi = ReturnType<typeof createLinkApi>;
