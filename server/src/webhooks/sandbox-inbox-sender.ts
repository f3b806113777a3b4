/**
 * @module
 * Delivery to the sandbox webhook inbox (the sandbox package's webhook-inbox.ts) while the sandbox runs: an inbox address at the
 * service's own origin may be http and loopback, so it is POSTed through the guarded fetch allowed that one origin;
 * every other address goes to the HTTPS sender with its public-address rule unchanged.
 */
import type { GuardedFetch } from '../core/guarded-fetch.js';
import { inboxKeyOf } from '@social-link-kit/sandbox';
import type { WebhookSender } from './https-sender.js';

export function withSandboxInbox(send: WebhookSender, publicUrl: () => string, fetch: GuardedFetch): WebhookSender {
  return async (webhook) => {
    const url = URL.canParse(webhook.url) ? new URL(webhook.url) : null;
    if (!url || inboxKeyOf(url, publicUrl()) === null) return send(webhook);
    try {
      const response = await fetch(url, { method: 'POST', headers: webhook.headers, body: webhook.body, redirect: 'error', timeoutMs: webhook.timeoutMs, signal: webhook.signal });
      await response.body?.cancel();
      return response.ok ? { ok: true, status: response.status } : { ok: false, status: response.status, error: `HTTP ${response.status}` };
    } catch (error) {
      return { ok: false, status: null, error: error instanceof Error ? error.message : String(error) };
    }
  };
}
