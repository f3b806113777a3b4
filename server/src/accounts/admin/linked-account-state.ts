/**
 * @module
 * What an operator needs to know about a linked account's tokens without seeing them: when the access token
 * ends and whether the user must link again. The tokens are opened in memory only, never returned.
 */
import type { LinkedAccountState } from '@social-link-kit/protocol/admin.js';
import { openTokens, type TokenCipher } from '../../core/crypto/token-cipher.js';
import type { SocialAccount } from '../../core/db/storage-types.js';

/** An access token ending sooner than this is reported as `expiring`. */
export const EXPIRING_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;

export function linkedAccountState(
  social: SocialAccount,
  cipher: TokenCipher,
  now: number,
): { state: LinkedAccountState; tokenExpiresAt: number | null } {
  // A real telegram link stores a chat, not a token.
  if (social.tokensEncrypted === null) return { state: 'ok', tokenExpiresAt: null };
  let tokens: { expiresIn?: unknown; obtainedAt?: unknown; refreshToken?: unknown; refreshJwt?: unknown };
  try {
    tokens = openTokens(cipher, social, social.tokensEncrypted);
  } catch {
    // Sealed with a key the service no longer has: only a new link gives usable tokens.
    return { state: 'needs relink', tokenExpiresAt: null };
  }
  if (typeof tokens.expiresIn !== 'number') return { state: 'ok', tokenExpiresAt: null };
  const obtainedAt = typeof tokens.obtainedAt === 'number' ? tokens.obtainedAt : social.linkedAt;
  const tokenExpiresAt = obtainedAt + tokens.expiresIn * 1000;
  const refreshable = Boolean(tokens.refreshToken ?? tokens.refreshJwt);
  if (tokenExpiresAt <= now) return { state: refreshable ? 'expired' : 'needs relink', tokenExpiresAt };
  if (tokenExpiresAt - now <= EXPIRING_WITHIN_MS) return { state: 'expiring', tokenExpiresAt };
  return { state: 'ok', tokenExpiresAt };
}
