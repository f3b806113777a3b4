/**
 * @module
 * `social-link-kit/webhooks.js`: verify the service's webhook deliveries (Standard Webhooks) in any runtime.
 */
export {
  verifyWebhook,
  signStandardWebhook,
  webhookSigningKey,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookHeaders,
  type WebhookVerificationFailure,
} from './standard-webhooks.js';
