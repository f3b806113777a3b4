/**
 * @module
 * Link-token authentication for the hosted page's API. Unknown, expired and revoked tokens get the same
 * answer (code 501), so the answer tells a guesser nothing. A bearer value shaped like a JWT is a legacy
 * link (`?jwt=`, spec 5.5): it is verified by legacy-jwt/verify-legacy-jwt.ts and runs on a stand-in session.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { clientAddress, enforceLimit } from '../core/limits/enforce-limit.js';
import { legacyJwtFromHeader, verifyLegacyJwt } from './legacy-jwt/verify-legacy-jwt.js';
import { hashSecret } from '../core/tokens.js';
import { bearerToken } from '../accounts/api-key-auth.js';
import { isSessionUsable, linkInvalidError } from './service.js';

export function linkTokenAuth(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'limiter' | 'log'>): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Counted before the lookup, for valid and invalid tokens alike, so guessing is slow and tells nothing.
    await enforceLimit(deps, 'tokenLookup', clientAddress(c, deps.config.limits.trustProxyHops), 'link session');
    const legacyJwt = legacyJwtFromHeader(c.req.header('authorization'));
    const token = legacyJwt ? null : bearerToken(c.req.header('authorization'));
    let session = token ? await deps.storage.linking.findLinkSessionByTokenHash(hashSecret(token)) : null;
    if (legacyJwt) {
      const legacy = await verifyLegacyJwt(deps, legacyJwt);
      if (!legacy.ok) deps.log(`legacy link refused: ${legacy.reason}`);
      session = legacy.ok ? legacy.session : null;
    }
    if (!isSessionUsable(session, deps.clock())) throw linkInvalidError();
    c.set('linkSession', session);
    await next();
  };
}
