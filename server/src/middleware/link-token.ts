/**
 * @module
 * Link-token authentication for the hosted page's API. Unknown, expired and revoked tokens get the same
 * answer (code 501), so the answer tells a guesser nothing.
 */
import type { MiddlewareHandler } from 'hono';
import { ErrorCode } from '../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ApiError } from '../errors.js';
import { hashSecret } from '../tokens.js';
import { bearerToken } from './api-key.js';

export function linkInvalidError(): ApiError {
  return new ApiError(401, ErrorCode.linkInvalid, 'This link has expired or is no longer valid. Ask for a new link.', {
    action: 'link session',
  });
}

export function linkTokenAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const session = token ? await deps.storage.findLinkSessionByTokenHash(hashSecret(token)) : null;
    if (!session || session.revokedAt !== null || session.expiresAt <= deps.clock()) throw linkInvalidError();
    c.set('linkSession', session);
    await next();
  };
}
