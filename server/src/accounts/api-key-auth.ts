/**
 * @module
 * API key authentication (spec 5.1-5.2): `Authorization: Bearer <API_KEY>` selects the account and its
 * Primary Profile; `Profile-Key` selects one of its user profiles instead. `authenticateApiKey` is the one check,
 * used by the Hono middleware and by the routes served below Hono (core/http/raw-listener.ts).
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import { ApiError } from '../core/errors.js';
import { fetchHeader } from '../core/http/raw-request.js';
import { hashSecret } from '../core/tokens.js';
import type { Caller, KeyHashes } from './caller-cache.js';

/** Who is calling: the account of the API key and the profile the request acts for. */
export interface ApiCaller {
  account: Account;
  profile: Profile;
}

/** The caller named by these two header values (as a fetch `Headers` object reads them), or the 401/404 to answer. */
export async function authenticateApiKey(deps: Pick<AppDeps, 'storage'>, authorization: string | undefined, profileKey: string | undefined): Promise<ApiCaller> {
  const key = keyHashesOf(authorization, profileKey);
  return callerOrRefusal(key ? await deps.storage.accounts.findCaller(key.apiKey, key.profileKey) : null);
}

/** The API key's and Profile-Key's hashes (the profile key's null when none is sent); null without a well-formed key. */
export function keyHashesOf(authorization: string | undefined, profileKey: string | undefined): KeyHashes | null {
  const key = bearerToken(authorization);
  return key ? { apiKey: hashSecret(key), profileKey: profileKey === undefined ? null : hashSecret(profileKey) } : null;
}

/** The caller the key hashes named (null: no such key), or the 401/404 to answer. */
function callerOrRefusal(caller: Caller | null): ApiCaller {
  if (!caller) {
    throw new ApiError(401, ErrorCode.apiKeyInvalid, 'API key missing or invalid. Send it as "Authorization: Bearer <API key>".', {
      action: 'authorization',
    });
  }
  const { account, profile } = caller;
  if (!profile) {
    throw new ApiError(404, ErrorCode.profileNotFound, 'Profile-Key does not match a profile of this account.', {
      action: 'authorization',
    });
  }
  return { account, profile };
}

/**
 * A caller read in the same statement as its route's answer (publishing/post-reads.ts `…AsKey`: one round trip on
 * PostgreSQL, where neither is kept in memory). The answer throws its own errors (106, 404) once the caller is known.
 */
export class CallerWithAnswer implements ApiCaller {
  constructor(
    readonly account: Account,
    readonly profile: Profile,
    readonly answer: () => string,
  ) {}
}

/**
 * `authenticateIncoming` by a read that names the caller and prepares its route's answer at once; the same
 * refusals, and no read at all without a well-formed key.
 */
export async function authenticateIncomingWith(
  incoming: IncomingMessage,
  read: (key: KeyHashes) => Promise<{ caller: Caller | null; answer: () => string }>,
): Promise<CallerWithAnswer> {
  const key = keyHashesOf(fetchHeader(incoming, 'authorization'), fetchHeader(incoming, 'profile-key'));
  const { caller, answer } = key ? await read(key) : { caller: null, answer: () => '' };
  const { account, profile } = callerOrRefusal(caller);
  return new CallerWithAnswer(account, profile, answer);
}

/** The caller of a request the raw listener answers (core/http/raw-listener.ts), from the same two headers. */
export function authenticateIncoming(deps: Pick<AppDeps, 'storage'>, incoming: IncomingMessage): Promise<ApiCaller> {
  return authenticateApiKey(deps, fetchHeader(incoming, 'authorization'), fetchHeader(incoming, 'profile-key'));
}

export function apiKeyAuth(deps: Pick<AppDeps, 'storage'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { account, profile } = await authenticateApiKey(deps, c.req.header('authorization'), c.req.header('profile-key'));
    c.set('account', account);
    c.set('profile', profile);
    await next();
  };
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/.exec(header ?? '');
  return match ? match[1]! : null;
}
