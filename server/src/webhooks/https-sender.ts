/**
 * @module
 * One webhook POST over HTTPS with node:https. Certificates are always verified: against the system roots,
 * plus the extra CAs of `WEBHOOK_CA_FILE` when set (never by turning verification off). Redirects are not
 * followed, and the whole attempt (DNS, connect, TLS, response headers) has one time limit.
 *
 * The receiver's hostname is resolved and vetted first (target-addresses.ts: no private, loopback, … address
 * unless allowed), then the connection is pinned to those addresses through the `lookup` option, so the socket
 * cannot be sent elsewhere by a later DNS answer. The URL is unchanged, so SNI, certificate checks and the
 * `Host` header still use the hostname.
 */
import type { LookupAddress } from 'node:dns';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { resolveTargetAddresses, systemResolveHost, type ResolveHost } from './target-addresses.js';

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Aborts the attempt, e.g. when the service stops. */
  signal?: AbortSignal;
}

export type WebhookSendResult = { ok: true; status: number } | { ok: false; status: number | null; error: string };

export type WebhookSender = (request: WebhookRequest) => Promise<WebhookSendResult>;

export interface HttpsSenderOptions {
  /** Extra trusted CA certificates (PEM), or null for the system roots only. */
  extraCaPem: string | null;
  /** Deliver to private, loopback, link-local, … addresses too (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Defaults to the system resolver (dns.lookup). */
  resolveHost?: ResolveHost;
}

export function createHttpsSender(options: HttpsSenderOptions): WebhookSender {
  const ca = options.extraCaPem ? [...rootCertificates, options.extraCaPem] : undefined;
  const resolveHost = options.resolveHost ?? systemResolveHost;
  return (webhook) =>
    new Promise<WebhookSendResult>((resolve) => {
      const url = URL.canParse(webhook.url) ? new URL(webhook.url) : null;
      if (url?.protocol !== 'https:') return resolve({ ok: false, status: null, error: 'not an https URL' });
      let settled = false;
      let outgoing: ClientRequest | null = null;
      const timer = setTimeout(() => {
        const error = new Error(`timed out after ${webhook.timeoutMs} ms`);
        if (outgoing) outgoing.destroy(error);
        else finish({ ok: false, status: null, error: error.message });
      }, webhook.timeoutMs);
      // Until the request exists (its own `signal` takes over then), a shutdown must not wait for the DNS answer.
      const abortBeforeRequest = () => {
        if (!outgoing) finish({ ok: false, status: null, error: 'aborted' });
      };
      webhook.signal?.addEventListener('abort', abortBeforeRequest, { once: true });
      function finish(result: WebhookSendResult) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        webhook.signal?.removeEventListener('abort', abortBeforeRequest);
        resolve(result);
      }

      const post = (addresses: LookupAddress[]) => {
        outgoing = request(url, {
          method: 'POST',
          headers: { ...webhook.headers, 'Content-Length': String(Buffer.byteLength(webhook.body)) },
          ca,
          agent: false,
          signal: webhook.signal,
          lookup: pinnedLookup(addresses),
        });
        outgoing.on('response', (response) => {
          const status = response.statusCode ?? 0;
          // The body is not used: close at once, so a receiver that keeps sending cannot hold the socket open.
          response.destroy();
          finish(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` });
        });
        outgoing.on('error', (error) => finish({ ok: false, status: null, error: error.message }));
        outgoing.end(webhook.body);
      };
      resolveTargetAddresses(url.hostname, { allowPrivate: options.allowPrivateTargets, resolveHost })
        .then((target) => {
          if (settled) return;
          if (!target.ok) return finish({ ok: false, status: null, error: target.error });
          if (webhook.signal?.aborted) return finish({ ok: false, status: null, error: 'aborted' });
          post(target.addresses);
        })
        // A request that cannot even be built fails this attempt, not the process (no unhandled rejection).
        .catch((error: unknown) => finish({ ok: false, status: null, error: error instanceof Error ? error.message : String(error) }));
    });
}

/** A `lookup` that answers only with the vetted addresses, whatever DNS would say now. */
export function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return (_hostname, lookupOptions, callback) => {
    const family = lookupOptions.family === 'IPv4' ? 4 : lookupOptions.family === 'IPv6' ? 6 : (lookupOptions.family ?? 0);
    const usable = family === 0 ? addresses : addresses.filter((a) => a.family === family);
    if (usable.length === 0) {
      callback(Object.assign(new Error(`no vetted IPv${family} address`), { code: 'ENOTFOUND' }), '', undefined);
      return;
    }
    if (lookupOptions.all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}
