/**
 * @module
 * Google's OAuth endpoints, shared by youtube and gmb (offline access: a refresh token on every consent).
 */

export const GOOGLE_LOGIN = {
  authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenEndpoint: 'https://oauth2.googleapis.com/token',
  pkce: true,
  clientAuth: 'client_secret_post',
  extraParams: { access_type: 'offline', prompt: 'consent' },
} as const;
