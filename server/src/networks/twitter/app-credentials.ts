/**
 * @module
 * The integrator's own X developer app credentials (spec 5.6). Every twitter-bound request carries both
 * `X-Twitter-OAuth1-Api-Key` and `X-Twitter-OAuth1-Api-Secret`: create and validate naming twitter, analytics and
 * comments of twitter posts, delete of a post on twitter, retry of a post that failed on twitter. One or none →
 * 400, code 419, before anything is stored, published or asked of X; the call then signs with the pair it was
 * given. The pair is sealed with the token cipher (bound to the profile) into the stored post, so a scheduled
 * post signs with the same app later (a retry or a delete stores the pair it was given); it is opened only when
 * the twitter adapter asks, and never logged or returned.
 */
import { ApiError } from '../../core/errors.js';
import type { TokenCipher } from '../../core/crypto/token-cipher.js';

export const TWITTER_API_KEY_HEADER = 'X-Twitter-OAuth1-Api-Key';
export const TWITTER_API_SECRET_HEADER = 'X-Twitter-OAuth1-Api-Secret';
/** Field of the stored request that holds the sealed pair. */
export const TWITTER_APP_FIELD = 'twitterAppSealed';

export interface TwitterAppCredentials {
  apiKey: string;
  apiSecret: string;
}

const usable = (value: string | undefined): value is string => typeof value === 'string' && value.trim() !== '' && value.length <= 256;

/** The pair of a twitter-bound request; 419 when one or both headers are missing. */
export function requiredTwitterApp(header: (name: string) => string | undefined, action: string): TwitterAppCredentials {
  const apiKey = header(TWITTER_API_KEY_HEADER);
  const apiSecret = header(TWITTER_API_SECRET_HEADER);
  if (!usable(apiKey) || !usable(apiSecret)) {
    const missing = [!usable(apiKey) && TWITTER_API_KEY_HEADER, !usable(apiSecret) && TWITTER_API_SECRET_HEADER].filter(Boolean);
    throw new ApiError(400, 419, `twitter needs your own developer app credentials: send both ${TWITTER_API_KEY_HEADER} and ${TWITTER_API_SECRET_HEADER}.`, {
      action,
      details: { missing },
    });
  }
  return { apiKey: apiKey.trim(), apiSecret: apiSecret.trim() };
}

const aad = (profileId: string) => `${profileId}|twitter|app-credentials`;

export function sealTwitterApp(cipher: TokenCipher, profileId: string, credentials: TwitterAppCredentials): string {
  return cipher.encrypt(JSON.stringify(credentials), aad(profileId));
}

export function openTwitterApp(cipher: TokenCipher, profileId: string, sealed: unknown): TwitterAppCredentials | null {
  if (typeof sealed !== 'string') return null;
  try {
    const opened = JSON.parse(cipher.decrypt(sealed, aad(profileId))) as Partial<TwitterAppCredentials>;
    return typeof opened.apiKey === 'string' && typeof opened.apiSecret === 'string' ? { apiKey: opened.apiKey, apiSecret: opened.apiSecret } : null;
  } catch {
    return null;
  }
}
