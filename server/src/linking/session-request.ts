/**
 * @module
 * Validation of the `POST /profiles/link-sessions` body (spec 4.6). Each field has its own error code so
 * an integrator can tell at once which one is wrong; `details` says what would be accepted.
 */
import {
  ErrorCode,
  INSTAGRAM_LINK_METHODS,
  NETWORKS,
  LOCALES,
  isLocale,
  isNetwork,
  parseSessionOrigin,
  type Locale,
  type InstagramLinkMethod,
  type Network,
} from '@social-link-kit/protocol';
import { ApiError, badRequest } from '../core/errors.js';
import { rejectUnknownFields } from '../core/http/reject-unknown-fields.js';
import type { Account } from '../core/db/storage-types.js';

export const DEFAULT_EXPIRES_IN_MINUTES = 5;
export const MAX_EXPIRES_IN_MINUTES = 2880;
const KNOWN_FIELDS = ['expiresIn', 'origin', 'instagramLinkMethod', 'email', 'allowedSocial', 'redirect', 'domain', 'privateKey', 'locale', 'relink'];
const ACTION = 'link session';

export interface LinkSessionRequest {
  expiresInMinutes: number;
  origin: string | null;
  instagramLinkMethod: InstagramLinkMethod | null;
  /** The raw `email` object when one was asked for; checked field by field later (it never rejects the request). */
  email: Record<string, unknown> | null;
  allowedSocial: Network[] | null;
  redirect: string | null;
  domain: string;
  locale: Locale | null;
}

export function parseLinkSessionRequest(body: Record<string, unknown>, account: Account): LinkSessionRequest {
  rejectUnknownFields(body, KNOWN_FIELDS, ACTION);
  return {
    email: parseEmail(body.email),
    expiresInMinutes: parseExpiresIn(body.expiresIn, account),
    origin: parseOrigin(body.origin, account),
    instagramLinkMethod: parseInstagramLinkMethod(body.instagramLinkMethod),
    allowedSocial: withRelink(parseAllowedSocial(body.allowedSocial), body.relink),
    redirect: parseRedirect(body.redirect, account),
    domain: parseDomain(body.domain, account),
    locale: parseLocale(body.locale),
  };
}

function parseEmail(value: unknown): Record<string, unknown> | null {
  if (value === undefined) return null;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest('"email" must be an object with to, contactEmail, company, termsUrl and privacyUrl.', undefined, ACTION);
  }
  const email = value as Record<string, unknown>;
  if (typeof email.to !== 'string' || email.to.trim() === '') {
    throw new ApiError(400, ErrorCode.emailToMissing, 'An email was requested without "to".', {
      action: ACTION,
      details: 'email.to is required when email is given.',
    });
  }
  return email;
}

function parseExpiresIn(value: unknown, account: Account): number {
  if (value === undefined) return DEFAULT_EXPIRES_IN_MINUTES;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_EXPIRES_IN_MINUTES) {
    throw badRequest(`"expiresIn" must be an integer number of minutes from 1 to ${MAX_EXPIRES_IN_MINUTES}.`, { received: value }, ACTION);
  }
  if (!account.maxPack) {
    throw new ApiError(403, ErrorCode.expiresInNeedsMaxPack, 'Setting "expiresIn" needs the max-pack add-on.', { action: ACTION });
  }
  return value;
}

function parseOrigin(value: unknown, account: Account): string | null {
  if (value === undefined) return null;
  const parsed = parseSessionOrigin(value);
  if (!parsed) {
    throw new ApiError(400, ErrorCode.originInvalid, '"origin" must be an https origin (no path) or a reverse-DNS app scheme URL such as com.example.app:/linked.', {
      action: ACTION,
    });
  }
  const normalized = parsed.kind === 'web' ? parsed.origin : parsed.url;
  if (account.allowedOrigins.length > 0 && !account.allowedOrigins.includes(normalized)) {
    throw new ApiError(400, ErrorCode.originInvalid, '"origin" is not in the allowed origins of this account.', {
      action: ACTION,
      details: { allowedOrigins: account.allowedOrigins },
    });
  }
  return normalized;
}

function parseInstagramLinkMethod(value: unknown): InstagramLinkMethod | null {
  if (value === undefined) return null;
  if (typeof value === 'string' && (INSTAGRAM_LINK_METHODS as readonly string[]).includes(value)) return value as InstagramLinkMethod;
  throw new ApiError(400, ErrorCode.instagramLinkMethodInvalid, `"instagramLinkMethod" must be one of: ${INSTAGRAM_LINK_METHODS.join(', ')}.`, {
    action: ACTION,
    details: { validValues: INSTAGRAM_LINK_METHODS },
  });
}

/**
 * `relink: '<network>'` opens the session for linking that network again (the `account.needs_relink` event names
 * it): the page shows only that network unless `allowedSocial` lists more, which must then include it.
 */
function withRelink(allowedSocial: Network[] | null, relink: unknown): Network[] | null {
  if (relink === undefined) return allowedSocial;
  if (!isNetwork(relink)) throw badRequest('"relink" must be one network.', { validValues: NETWORKS }, ACTION);
  if (allowedSocial === null) return [relink];
  if (!allowedSocial.includes(relink)) throw badRequest('"relink" must be one of the "allowedSocial" networks.', { relink, allowedSocial }, ACTION);
  return allowedSocial;
}

function parseAllowedSocial(value: unknown): Network[] | null {
  if (value === undefined) return null;
  const invalid = (message: string, details: unknown) =>
    new ApiError(400, ErrorCode.allowedSocialInvalid, message, { action: ACTION, details });
  if (!Array.isArray(value) || value.length === 0) {
    throw invalid('"allowedSocial" must be a non-empty array of networks.', { validValues: NETWORKS });
  }
  const unknown = value.filter((item) => !isNetwork(item));
  if (unknown.length > 0) {
    throw invalid(`"allowedSocial" has unknown network(s): ${unknown.map(String).join(', ')}.`, { unknown, validValues: NETWORKS });
  }
  return [...new Set(value as Network[])];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * `redirect`: an https URL (http only on loopback), or a native app's scheme URL; no control characters, no
 * credentials; and, when the account has an origin allowlist, on it (its origin, or an allowlisted app scheme).
 */
function parseRedirect(value: unknown, account: Account): string | null {
  if (value === undefined) return null;
  const invalid = (message: string, details?: unknown) => new ApiError(400, ErrorCode.redirectInvalid, message, { action: ACTION, details });
  if (typeof value !== 'string') throw invalid('"redirect" must be a string.');
  if (value.length > 2048 || /[\u0000-\u001f\u007f]/.test(value)) throw invalid('"redirect" must be at most 2048 characters, without control characters.');
  const app = parseSessionOrigin(value);
  if (app?.kind === 'app') {
    const schemes = account.allowedOrigins.map((entry) => parseSessionOrigin(entry)).flatMap((entry) => (entry?.kind === 'app' ? [entry.scheme] : []));
    if (account.allowedOrigins.length > 0 && !schemes.includes(app.scheme)) {
      throw invalid('"redirect" is not in the allowed origins of this account.', { allowedOrigins: account.allowedOrigins });
    }
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('"redirect" must be an absolute https URL (http only on loopback) or an app scheme URL.');
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure || !/^https?:\/\//i.test(value)) throw invalid('"redirect" must be an absolute https URL (http only on loopback) or an app scheme URL.');
  if (url.username || url.password) throw invalid('"redirect" must not contain credentials.');
  if (account.allowedOrigins.length > 0 && !account.allowedOrigins.includes(url.origin)) {
    throw invalid('"redirect" is not in the allowed origins of this account.', { allowedOrigins: account.allowedOrigins });
  }
  return value;
}

function parseDomain(value: unknown, account: Account): string {
  const invalid = (message: string) =>
    new ApiError(400, ErrorCode.domainInvalid, message, { action: ACTION, details: { domains: account.domains } });
  if (value === undefined) {
    if (account.domains.length > 1) throw invalid('"domain" is required: this account has more than one linking domain.');
    return account.domains[0]!;
  }
  if (typeof value !== 'string' || !account.domains.includes(value)) throw invalid('"domain" is not a linking domain of this account.');
  return value;
}

function parseLocale(value: unknown): Locale | null {
  if (value === undefined) return null;
  if (isLocale(value)) return value;
  throw badRequest(`"locale" must be one of: ${LOCALES.join(', ')}.`, { validValues: LOCALES }, ACTION);
}
