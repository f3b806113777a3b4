/**
 * @module
 * The sandbox webhook inbox: a receiver at the service's own address, so webhooks can be seen without a public
 * https host of one's own. Only while the sandbox runs (the routes are mounted, the registration accepts the address
 * and the delivery worker reaches it, all only then); everything else keeps the public-https rule.
 * - `POST /api/sandbox/webhook-inbox` (API key, optional Profile-Key) → `{status, url}`: the profile's inbox address,
 *   `<public URL>/sandbox/webhook-inbox/<key>`; the key is a secret, kept hashed like every sandbox token.
 * - `POST /sandbox/webhook-inbox/<key>`: the receiver. Keeps the request (headers, body) and checks its Standard
 *   Webhooks signature with the registration's secret (`verifyWebhook`, the npm package's own check); answers 200.
 * - `GET  /api/sandbox/webhook-inbox` → `{status, refId, deliveries}`: the last 50 requests, newest first.
 * Received requests are kept in this process's memory (a development tool, gone on restart).
 */
import { Hono } from 'hono';
import { ErrorCode } from '@social-link-kit/protocol';
import type { SandboxInboxDelivery } from '@social-link-kit/protocol/webhooks.js';
import { WebhookVerificationError, verifyWebhook } from '../../../src/webhooks/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import type { Profile } from '../core/db/storage-types.js';
import { openWebhookSecret } from '../webhooks/webhook-secret.js';
import { WEBHOOK_ACTION } from '../webhooks/registration-request.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './networks/sandbox-tokens.js';

const INBOX = 'webhook-inbox';
const INBOX_PATH = '/sandbox/webhook-inbox/';
const KEPT_PER_PROFILE = 50;

/** What each profile's inbox received, newest first, in memory. */
export class SandboxWebhookInbox {
  private readonly byProfile = new Map<string, SandboxInboxDelivery[]>();

  add(profileId: string, delivery: SandboxInboxDelivery): void {
    const list = this.byProfile.get(profileId) ?? [];
    list.unshift(delivery);
    list.length = Math.min(list.length, KEPT_PER_PROFILE);
    this.byProfile.set(profileId, list);
  }

  list(profileId: string): SandboxInboxDelivery[] {
    return this.byProfile.get(profileId) ?? [];
  }
}

/** The key of an inbox address at this service's own origin, or null when `url` is not one. */
export function inboxKeyOf(url: URL, publicUrl: string): string | null {
  if (url.origin !== new URL(publicUrl).origin || url.search !== '' || url.hash !== '' || !url.pathname.startsWith(INBOX_PATH)) return null;
  const key = url.pathname.slice(INBOX_PATH.length);
  return /^[A-Za-z0-9_-]{1,200}$/.test(key) ? key : null;
}

/** The profile whose inbox `key` opens, or null. */
async function inboxProfile(deps: AppDeps, key: string | null): Promise<Profile | null> {
  const found = await checkSandboxToken(sandboxStoreOf(deps.storage), key, INBOX, 'inbox', deps.clock());
  return found.ok ? deps.storage.accounts.findProfileByRefId(found.accountId) : null;
}

/**
 * For webhook registration while the sandbox runs: true when `url` is the inbox of `profile` (then http and loopback
 * are fine), false when it is not an inbox address; another profile's or an unknown key is refused (400).
 */
export async function isOwnSandboxInbox(deps: AppDeps, profile: Profile, url: string): Promise<boolean> {
  if (!deps.networks.sandboxOn || !URL.canParse(url)) return false;
  const key = inboxKeyOf(new URL(url), deps.config.publicUrl);
  if (key === null) return false;
  const owner = await inboxProfile(deps, key);
  if (owner?.id !== profile.id) {
    throw badRequest('"url" is not a sandbox inbox of this profile: ask POST /api/sandbox/webhook-inbox for its address.', { field: 'url' }, WEBHOOK_ACTION);
  }
  return true;
}

/** `/sandbox/webhook-inbox/:key`, mounted only while the sandbox runs. */
export function sandboxInboxReceiverRoutes(deps: AppDeps, inbox: SandboxWebhookInbox): Hono<AppEnv> {
  return new Hono<AppEnv>().post('/:key', async (c) => {
    const profile = await inboxProfile(deps, c.req.param('key'));
    if (!profile) throw new ApiError(404, ErrorCode.badRequest, 'This sandbox inbox address is not valid: ask the API for one (POST /api/sandbox/webhook-inbox).', { action: INBOX });
    const tooLarge = () => badRequest(`The body is larger than ${deps.config.maxBodyBytes} bytes.`, undefined, INBOX);
    if (Number(c.req.header('content-length') ?? 0) > deps.config.maxBodyBytes) throw tooLarge();
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    if (bytes.length > deps.config.maxBodyBytes) throw tooLarge();
    const body = new TextDecoder().decode(bytes);
    const headers = Object.fromEntries(c.req.raw.headers.entries());
    const action = headers['x-webhook-action'] ?? null;
    inbox.add(profile.id, {
      id: headers['webhook-id'] ?? null,
      action,
      receivedAt: new Date(deps.clock()).toISOString(),
      headers,
      body,
      signature: await checkSignature(deps, profile, action, body, headers),
    });
    return c.json({ status: 'success' });
  });
}

async function checkSignature(deps: AppDeps, profile: Profile, action: string | null, body: string, headers: Record<string, string>): Promise<SandboxInboxDelivery['signature']> {
  const registration = (await deps.storage.webhooks.listWebhooks(profile.id)).find((webhook) => webhook.action === action);
  if (!registration) return { status: 'unsigned', reason: 'no registration for this action' };
  const opened = openWebhookSecret(deps.tokenCipher, profile.id, registration.action, registration.sealedSecret);
  if (!opened.ok) return { status: 'invalid', reason: opened.error };
  if (opened.secret === null) return { status: 'unsigned', reason: 'the registration has no secret' };
  try {
    // The wall clock, as the delivery worker signs with it (webhooks/delivery-worker.ts), not the service clock.
    await verifyWebhook(body, headers, opened.secret);
    return { status: 'valid', reason: null };
  } catch (error) {
    if (error instanceof WebhookVerificationError) return { status: 'invalid', reason: error.reason };
    return { status: 'invalid', reason: 'the body is not JSON' };
  }
}

/** `/api/sandbox/webhook-inbox` (behind the API key), mounted only while the sandbox runs. */
export function sandboxInboxApiRoutes(deps: AppDeps, inbox: SandboxWebhookInbox): Hono<AppEnv> {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const key = await issueSandboxToken(sandboxStoreOf(deps.storage), { platform: INBOX, accountId: c.get('profile').refId, kind: 'inbox', ttlMs: null }, deps.clock());
      return c.json({ status: 'success', url: `${deps.config.publicUrl}${INBOX_PATH}${key}` });
    })
    .get('/', (c) => {
      const profile = c.get('profile');
      return c.json({ status: 'success', refId: profile.refId, deliveries: inbox.list(profile.id) });
    });
}
