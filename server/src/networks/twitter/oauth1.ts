/**
 * @module
 * OAuth 1.0a request signing (RFC 5849, HMAC-SHA1), as X requires for requests made with an integrator's own app
 * credentials: the app's consumer key and secret (from the request headers `X-Twitter-OAuth1-Api-Key` / `-Secret`)
 * plus the user's access token and token secret. The signature covers the method, the URL without its query, and
 * every OAuth, query and form (`application/x-www-form-urlencoded`) parameter; JSON and multipart bodies are not
 * signed. The sandbox X API verifies with the same functions, so both sides agree on the base string.
 */
import { createHmac, randomBytes } from 'node:crypto';

export interface OAuth1Credentials {
  consumerKey: string;
  consumerSecret: string;
  token: string;
  tokenSecret: string;
}

/** RFC 3986 percent-encoding (encodeURIComponent leaves !*'() alone; OAuth does not). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!*'()]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The signature base string of RFC 5849 3.4.1. */
export function signatureBaseString(method: string, url: string, params: [string, string][]): string {
  const target = new URL(url);
  const baseUrl = `${target.protocol}//${target.host}`.toLowerCase() + target.pathname;
  const all: [string, string][] = [...params, ...[...target.searchParams.entries()]];
  const normalized = all
    .map(([key, value]) => [percentEncode(key), percentEncode(value)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  return [method.toUpperCase(), percentEncode(baseUrl), percentEncode(normalized)].join('&');
}

export function oauth1Signature(consumerSecret: string, tokenSecret: string, baseString: string): string {
  return createHmac('sha1', `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`).update(baseString).digest('base64');
}

/** The `Authorization: OAuth …` header for one request; `formParams` are the form body's fields, if any. */
export function oauth1Header(credentials: OAuth1Credentials, method: string, url: string, nowMs: number, formParams: [string, string][] = []): string {
  const oauth: [string, string][] = [
    ['oauth_consumer_key', credentials.consumerKey],
    ['oauth_nonce', randomBytes(16).toString('hex')],
    ['oauth_signature_method', 'HMAC-SHA1'],
    ['oauth_timestamp', String(Math.floor(nowMs / 1000))],
    ['oauth_token', credentials.token],
    ['oauth_version', '1.0'],
  ];
  const signature = oauth1Signature(credentials.consumerSecret, credentials.tokenSecret, signatureBaseString(method, url, [...oauth, ...formParams]));
  const headerParams: [string, string][] = [...oauth, ['oauth_signature', signature]];
  return `OAuth ${headerParams.map(([key, value]) => `${percentEncode(key)}="${percentEncode(value)}"`).join(', ')}`;
}

/** The parameters of an `Authorization: OAuth …` header; null when it is not one. */
export function parseOAuth1Header(header: string | undefined): Record<string, string> | null {
  if (!header || !/^OAuth\s/i.test(header) || header.length > 4096) return null;
  const params: Record<string, string> = {};
  for (const match of header.slice(6).matchAll(/([a-z_]+)="([^"]*)"/gi)) {
    try {
      params[match[1]!] = decodeURIComponent(match[2]!);
    } catch {
      return null;
    }
  }
  return params;
}
