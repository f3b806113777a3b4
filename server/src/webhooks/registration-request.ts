/**
 * @module
 * The rules of a webhook registration request: which action, a public https URL, an optional signing secret. The
 * `url` must point to a public host: an IP literal in a private, loopback, link-local, … range, or a `localhost`
 * name, is refused with 400 code 101 like any other bad `url` (target-host.ts); names are checked again after
 * resolution at every delivery. `WEBHOOK_ALLOW_PRIVATE_TARGETS=1` lifts both.
 */
import { badRequest } from '../core/errors.js';
import { WEBHOOK_ACTIONS, isWebhookAction, type WebhookAction } from '@social-link-kit/protocol/webhooks.js';
import { refuseHostBeforeLookup } from './target-host.js';

export const WEBHOOK_ACTION = 'webhook';

const MAX_URL_LENGTH = 2048;
const MAX_SECRET_LENGTH = 512;

export function parseAction(value: unknown): WebhookAction {
  if (isWebhookAction(value)) return value;
  throw badRequest(`"action" is required and must be one of: ${WEBHOOK_ACTIONS.join(', ')}.`, { validValues: WEBHOOK_ACTIONS }, WEBHOOK_ACTION);
}

export function parseUrl(value: unknown, allowPrivateTargets: boolean): string {
  const invalid = () =>
    badRequest(`"url" is required: a valid URL beginning with https://, at most ${MAX_URL_LENGTH} characters.`, undefined, WEBHOOK_ACTION);
  if (typeof value !== 'string' || !value.startsWith('https://') || value.length > MAX_URL_LENGTH) throw invalid();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid();
  }
  if (url.protocol !== 'https:' || url.hostname === '') throw invalid();
  // Credentials in the URL would be stored and sent in clear and shown back by the list: use `secret` instead.
  if (url.username !== '' || url.password !== '') {
    throw badRequest('"url" must not contain credentials (user:password@); sign deliveries with "secret" instead.', { field: 'url' }, WEBHOOK_ACTION);
  }
  const refusal = allowPrivateTargets ? null : refuseHostBeforeLookup(url.hostname);
  if (refusal) {
    throw badRequest(
      `"url" must point to a public host; ${refusal.host} is not a public address (${refusal.range}).`,
      { field: 'url', host: refusal.host, range: refusal.range },
      WEBHOOK_ACTION,
    );
  }
  return value;
}

export function parseSecret(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SECRET_LENGTH) {
    throw badRequest(`"secret" must be a string of 1 to ${MAX_SECRET_LENGTH} characters.`, undefined, WEBHOOK_ACTION);
  }
  return value;
}
