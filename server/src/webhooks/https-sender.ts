/**
 * @module
 * One webhook POST over HTTPS with node:https. Certificates are always verified: against the system roots,
 * plus the extra CAs of `WEBHOOK_CA_FILE` when set (never by turning verification off). Redirects are not
 * followed, and the whole attempt (connect, TLS, response headers) has one time limit.
 */
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';

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

export function createHttpsSender(extraCaPem: string | null): WebhookSender {
  const ca = extraCaPem ? [...rootCertificates, extraCaPem] : undefined;
  return (webhook) =>
    new Promise<WebhookSendResult>((resolve) => {
      let settled = false;
      const finish = (result: WebhookSendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const url = new URL(webhook.url);
      if (url.protocol !== 'https:') {
        finish({ ok: false, status: null, error: 'not an https URL' });
        return;
      }
      const outgoing = request(url, {
        method: 'POST',
        headers: { ...webhook.headers, 'Content-Length': String(Buffer.byteLength(webhook.body)) },
        ca,
        agent: false,
        signal: webhook.signal,
      });
      const timer = setTimeout(() => {
        outgoing.destroy(new Error(`timed out after ${webhook.timeoutMs} ms`));
      }, webhook.timeoutMs);
      outgoing.on('response', (response) => {
        const status = response.statusCode ?? 0;
        // The body is not used; drain it so the socket can close.
        response.resume();
        finish(status >= 200 && status < 300 ? { ok: true, status } : { ok: false, status, error: `HTTP ${status}` });
      });
      outgoing.on('error', (error) => finish({ ok: false, status: null, error: error.message }));
      outgoing.end(webhook.body);
    });
}
