/**
 * @module
 * Verifies a legacy JWT link (rules in legacy-jwt-rules.ts) and returns the stand-in link session the rest of
 * the connect flow runs on: created on first use, keyed by SHA-256 of the JWT, `legacy` so the link-session
 * API can neither read nor revoke it. The JWT is verified again on every request, so replacing or resetting
 * the integration key ends the link at once. Any failure returns a reason for the log; the caller answers
 * with the same 501 as for any bad token.
 */
import { jsonLogLine } from '../../core/observability/json-log.js';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWTPayload } from 'jose';
import type { AppDeps } from '../../app-deps.js';
import { parseLinkSessionRequest } from '../session-request.js';
import type { LinkSessionRecord } from '../../core/db/storage-types.js';
import { hashSecret, newId } from '../../core/tokens.js';
import {
  CLOCK_TOLERANCE_SECONDS,
  LEGACY_AUDIENCE,
  MAX_JWT_LENGTH,
  MAX_LIFETIME_MINUTES,
  NO_EXPIRY,
  SERVICE_KEY_ID,
  isLegacyAlgorithm,
} from './legacy-jwt-rules.js';

export type LegacyJwtResult = { ok: true; session: LinkSessionRecord } | { ok: false; reason: string };

/** The JWT in `Authorization: Bearer <jwt>`, or null when the bearer value is not shaped like a JWT. */
export function legacyJwtFromHeader(header: string | undefined): string | null {
  const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/.exec(header ?? '');
  return match && match[1]!.length <= MAX_JWT_LENGTH ? match[1]! : null;
}

export async function verifyLegacyJwt(deps: Pick<AppDeps, 'storage' | 'clock' | 'log'>, jwt: string): Promise<LegacyJwtResult> {
  const fail = (reason: string): LegacyJwtResult => ({ ok: false, reason });
  let header: ReturnType<typeof decodeProtectedHeader>;
  let unverified: JWTPayload;
  try {
    header = decodeProtectedHeader(jwt);
    unverified = decodeJwt(jwt);
  } catch {
    return fail('malformed');
  }
  // Checked before any key is touched: `none` and HS* never reach the verifier.
  if (!isLegacyAlgorithm(header.alg)) return fail(`algorithm ${String(header.alg)} not allowed`);
  if (header.typ !== undefined && String(header.typ).toUpperCase() !== 'JWT') return fail('typ is not JWT');
  if (typeof unverified.sub !== 'string') return fail('sub missing');

  const profile = await deps.storage.accounts.findProfileByRefId(unverified.sub);
  const account = profile ? await deps.storage.accounts.findAccount(profile.accountId) : null;
  if (!profile || !account) return fail('unknown profile');
  const key = await deps.storage.integrationKeys.findIntegrationKey(account.id, header.kid === SERVICE_KEY_ID ? 'service' : 'integrator');
  if (!key) return fail('no integration key');
  if (key.algorithm !== header.alg) return fail('algorithm does not match the key');

  const now = deps.clock();
  let claims: JWTPayload;
  try {
    const verified = await jwtVerify(jwt, await importJWK(key.publicJwk, key.algorithm), {
      algorithms: [key.algorithm],
      issuer: account.domains,
      audience: LEGACY_AUDIENCE,
      subject: profile.refId,
      requiredClaims: ['iss', 'aud', 'sub', 'iat'],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: new Date(now),
    });
    claims = verified.payload;
  } catch (error) {
    return fail(`verification failed: ${(error as { code?: string }).code ?? 'error'}`);
  }
  const iat = claims.iat!;
  if (iat * 1000 > now + CLOCK_TOLERANCE_SECONDS * 1000) return fail('iat in the future');
  if (claims.exp !== undefined) {
    // No leeway on expiry: the stand-in session ends exactly at exp, as the service clock sees it.
    if (claims.exp * 1000 <= now) return fail('expired');
    // Spec 5.5: such links expire only by their `exp`, so a longer lifetime is accepted; the operator is told.
    if (claims.exp - iat > MAX_LIFETIME_MINUTES * 60) {
      const minutes = Math.round((claims.exp - iat) / 60);
      deps.log(
        jsonLogLine('warn', `legacy JWT link accepted with a lifetime of ${minutes} minutes (more than ${MAX_LIFETIME_MINUTES}); it expires only at its exp`, {
          accountId: account.id,
        }),
      );
    }
  }

  let options: ReturnType<typeof parseLinkSessionRequest>;
  try {
    const extra: Record<string, unknown> = { domain: claims.iss };
    if (claims.allowedSocial !== undefined) extra.allowedSocial = claims.allowedSocial;
    if (claims.redirect !== undefined) extra.redirect = claims.redirect;
    options = parseLinkSessionRequest(extra, account);
  } catch {
    return fail('invalid allowedSocial or redirect claim');
  }

  const session = await deps.storage.linking.findOrCreateLegacyLinkSession({
    id: newId('ls_'),
    tokenHash: hashSecret(jwt),
    accountId: account.id,
    profileId: profile.id,
    origin: null,
    redirect: options.redirect,
    domain: options.domain,
    allowedSocial: options.allowedSocial,
    instagramLinkMethod: null,
    createdAt: now,
    expiresAt: claims.exp !== undefined ? claims.exp * 1000 : NO_EXPIRY,
  });
  if (session.revokedAt !== null) return fail('ended by an integration reset');
  return { ok: true, session };
}
