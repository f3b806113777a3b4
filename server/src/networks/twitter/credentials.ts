/**
 * @module
 * The OAuth 1.0a credentials every X call signs with: the integrator's app (from the request, or sealed with a
 * post) and the user's access token and secret from the link.
 */
import type { PublishContext, PublishFailure } from '../publish-adapter.js';
import type { OAuth1Credentials } from './oauth1.js';

/** The app (from the request) and the user's OAuth 1.0a token; 419 without the app, 423 for an OAuth 2.0-only link. */
export async function credentialsOf(ctx: Pick<PublishContext, 'appCredentials' | 'account'>): Promise<OAuth1Credentials | PublishFailure> {
  const app = (await ctx.appCredentials?.()) ?? null;
  if (!app) {
    return { kind: 'failed', code: 419, message: 'twitter needs your own developer app credentials: send X-Twitter-OAuth1-Api-Key and X-Twitter-OAuth1-Api-Secret with the request.', retryAvailable: false, relink: false };
  }
  const tokens = await ctx.account.tokens();
  const token = tokens.oauthToken;
  const tokenSecret = tokens.oauthTokenSecret;
  if (typeof token !== 'string' || typeof tokenSecret !== 'string' || token === '' || tokenSecret === '') {
    return {
      kind: 'failed',
      code: 423,
      message: 'This twitter account was linked with legacy access (no OAuth 1.0a token of your app). Link it again through your own developer app.',
      retryAvailable: false,
      relink: true,
    };
  }
  return { consumerKey: app.apiKey, consumerSecret: app.apiSecret, token, tokenSecret };
}

