/**
 * @module
 * The login shape LinkedIn, the Instagram login and Threads share: no PKCE, the client secret in the token request
 * body, token answers without `token_type` (taken as bearer), and the plain identity fields.
 */
import { plainIdentity } from './identity.js';

export const UNTYPED_TOKEN_LOGIN = {
  pkce: false,
  tokenTypeMissing: true,
  clientAuth: 'client_secret_post',
  identity: plainIdentity,
} as const;
