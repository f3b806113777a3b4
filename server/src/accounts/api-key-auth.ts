/**
 * @module
 * API key authentication (spec 5.1-5.2): `Authorization: Bearer <API_KEY>` selects the account and its
 * Primary Profile; `Profile-Key` selects one of its user profiles instead.
 */
import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ApiError } from '../core/errors.js';
import { hashSecret } from '../core/tokens.js';

export function apiKeyAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = bearerToken(c.req.header('authorization'));
    const profileKey = c.req.header('profile-key');
    const caller = key ? await deps.storage.accounts.findCaller(hashSecret(key), profileKey === undefined ? null : hashSecret(profileKey)) : null;
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
    c.set('account', account);
    c.set('profile', profile);
    await next();
  };
}

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/.exec(header ?? '');
  return match ? match[1]! : null;
}
