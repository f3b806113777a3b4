/**
 * @module
 * The rules for legacy JWT links (spec 5.5, 9), in one place:
 * - algorithms: RS256 (RSA ≥ 2048 bits), ES256 (P-256), EdDSA (Ed25519); never `none` or HS*
 * - `iss`: one of the account's linking domains (the `domain` of the link)
 * - `aud`: the fixed audience {@link LEGACY_AUDIENCE}
 * - `sub`: the `refId` of the profile to link (public, unique across the service; the signature binds it)
 * - `iat`: required, not more than {@link CLOCK_TOLERANCE_SECONDS} in the future
 * - `exp`: optional (such a link never expires, spec 5.5); when present it is enforced without leeway; a lifetime
 *   `exp - iat` over {@link MAX_LIFETIME_MINUTES} minutes is accepted with a logged warning (spec 5.5: such links
 *   expire only by their `exp`); generateJWT never issues one
 * - `nbf`: enforced when present, with the clock tolerance
 * - header `typ`: when present it must be `JWT`
 * - optional claims `allowedSocial` and `redirect` follow the link-session rules of spec 4.6
 * - `kid: "slk-service"` selects the key the service made for generateJWT; any other or no kid selects the
 *   public key the integrator registered.
 */
export const LEGACY_ALGORITHMS = ['RS256', 'ES256', 'EdDSA'] as const;
export type LegacyAlgorithm = (typeof LEGACY_ALGORITHMS)[number];

export const LEGACY_AUDIENCE = 'social-link-kit:legacy-link';
export const SERVICE_KEY_ID = 'slk-service';
export const MAX_LIFETIME_MINUTES = 2880;
export const CLOCK_TOLERANCE_SECONDS = 60;
/** `expiresAt` of the stand-in session of a JWT without `exp`. */
export const NO_EXPIRY = Date.UTC(9999, 11, 31);
/** Longest accepted JWT (RSA-4096 signatures and a few claims fit easily). */
export const MAX_JWT_LENGTH = 8192;

export function isLegacyAlgorithm(value: unknown): value is LegacyAlgorithm {
  return typeof value === 'string' && (LEGACY_ALGORITHMS as readonly string[]).includes(value);
}
