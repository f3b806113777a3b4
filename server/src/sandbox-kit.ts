/**
 * @module
 * The stateless helpers the sandbox package shares with the service, imported by name
 * (`@social-link-kit/server/sandbox-kit.js`): one implementation for a fake network and the real adapter that talks
 * to it (text measures, OAuth 1.0a signatures, LinkedIn's little text, Snapchat's media encryption, TikTok's
 * webhook signature), the service's ids, secret hashing and error envelopes, and the linking and event calls an
 * account made by the sandbox's shortcut goes through. Nothing here holds state; what does comes in the host
 * (sandbox-host.ts).
 */
export { newId, newSecret, hashSecret } from './core/tokens.js';
export { ApiError, badRequest } from './core/errors.js';
export { readJsonObject } from './core/http/read-json.js';
export { escapeHtml, htmlPageHeaders } from './core/http/html.js';
export { tokenAad } from './core/crypto/token-cipher.js';
export { authenticateApiKey } from './accounts/api-key-auth.js';
export { linkAccount } from './linking/service.js';
export { tokenFacts } from './account-health/token-facts.js';
export { queueNetworkEvent } from './automations/network-events.js';
export { openWebhookSecret } from './webhooks/webhook-secret.js';
export { WEBHOOK_ACTION } from './webhooks/registration-request.js';
export { sandboxClientOf } from './networks/registry.js';
export { measureText, countGraphemes } from './networks/text/text-length.js';
export { STOCK_CATALOGUE } from './publishing/media/stock-images.js';
export { SANDBOX_UNSPLASH_KEY, SANDBOX_UNSPLASH_PATH } from './publishing/media/unsplash.js';
export { findMoov, readMoovDuration } from './publishing/media/mp4-duration.js';
export { readLittleText } from './networks/linkedin/little-text.js';
export { decryptSnapMedia } from './networks/snapchat/media-encryption.js';
export { oauth1Signature, parseOAuth1Header, signatureBaseString } from './networks/twitter/oauth1.js';
export { tiktokSignature, TIKTOK_SIGNATURE_HEADER } from './networks/tiktok/webhook-signature.js';
