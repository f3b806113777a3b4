/**
 * @module
 * Request bodies and the few answers that had no schema yet, as zod schemas for the generated OpenAPI document
 * (server/src/core/openapi). The server validates inbound fields itself, each with its own error code; these
 * describe the same fields. Not exported from index.ts, so the widget bundle does not carry them.
 */
import { z } from 'zod';
import { InstagramLinkMethod, Network, UnlinkableNetwork } from './networks.js';
import { LinkSessionEmail } from './resources.js';
import { WebhookAction } from './webhooks.js';

export const CreateLinkSessionRequestBody = z.object({
  expiresIn: z.int().min(1).max(2880).optional().describe('Minutes, default 5; needs the max-pack add-on (504 otherwise).'),
  origin: z.string().optional().describe('The integrator page origin (https; http only on loopback) or a native app scheme URL.'),
  instagramLinkMethod: InstagramLinkMethod.optional(),
  email: LinkSessionEmail.partial().optional(),
  allowedSocial: z.array(Network).min(1).optional(),
  redirect: z.string().optional().describe('Absolute URL the hosted page returns to in direct mode.'),
  domain: z.string().optional().describe('A linking domain of the account; required when it has several.'),
  privateKey: z.string().optional().describe('Accepted and ignored (spec 4.6).'),
  relink: Network.optional().describe("Link this network again (an account.needs_relink event names it): the page shows only it unless allowedSocial lists more."),
});

export const CreateProfileRequest = z.object({ title: z.string().min(1).max(200) });
export const UnlinkRequest = z.object({ platform: UnlinkableNetwork });
/** Sent by the Primary Profile (no `Profile-Key`): lifts the named profile's suspension. */
export const LiftSuspensionRequest = z.strictObject({ refId: z.string(), suspended: z.literal(false) });

export const RegisterWebhookRequest = z.object({
  action: WebhookAction,
  url: z.url().describe('https URL of a public host.'),
  secret: z.string().optional().describe('HMAC-SHA256 signing secret; stored sealed, never returned.'),
});
export const UnregisterWebhookRequest = z.object({ action: WebhookAction });

export const GenerateJwtRequest = z.object({
  domain: z.string().optional(),
  redirect: z.string().optional(),
  allowedSocial: z.array(Network).min(1).optional(),
  expiresIn: z.int().min(1).max(2880).optional(),
  privateKey: z.string().optional().describe('Accepted and ignored.'),
  logout: z.boolean().optional().describe('Accepted and ignored.'),
  base64: z.boolean().optional().describe('Accepted and ignored.'),
});
export const GenerateJwtResponse = z.object({
  status: z.literal('success'),
  title: z.string(),
  token: z.string(),
  url: z.url(),
  emailSent: z.literal(false),
  expiresIn: z.int(),
});

export const IntegrationKeyRequest = z.object({
  publicKey: z.union([z.string().describe('PEM SPKI'), z.record(z.string(), z.unknown()).describe('JWK')]),
});
const KeyInfo = z.object({ algorithm: z.string(), thumbprint: z.string(), createdAt: z.string() });
export const IntegrationKeyResponse = z.object({ status: z.literal('success'), algorithm: z.string(), thumbprint: z.string() });
export const IntegrationKeysResponse = z.object({ status: z.literal('success'), integrator: KeyInfo.nullable(), service: KeyInfo.nullable() });
export const IntegrationResetResponse = z.object({ status: z.literal('success'), reset: z.literal(true) });

export const HealthResponse = z.object({ status: z.literal('ok') });
export const ReadyResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  checks: z.object({ database: z.enum(['ok', 'unavailable']), jobs: z.enum(['ok', 'stopped']) }),
});
export const TelegramUpdate = z.object({ update_id: z.int() }).loose().describe('A Telegram Bot API update.');
export const WidgetManifest = z.object({
  latest: z.string(),
  channels: z.record(z.string(), z.string()).describe('channel (v1) → the version it serves'),
  versions: z.record(z.string(), z.object({ url: z.string(), integrity: z.string().describe('SRI hash, sha384-…') })),
});
