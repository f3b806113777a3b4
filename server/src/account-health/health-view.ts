/**
 * @module
 * Account health as the API shows it (`GET /api/user` per network, `GET /api/profiles/health`): the recorded state
 * (status, last renewal, next time, last error) and what the stored tokens say (expiry, granted scopes) next to the
 * scopes publishing needs. An account no check has reached yet is `healthy` with no times.
 */
import type { AccountHealth } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import { openTokens } from '../core/crypto/token-cipher.js';
import type { SocialAccount } from '../core/db/storage-types.js';
import type { AppDeps } from '../app-deps.js';
import { readHealth } from './health-recorder.js';
import { missingScopes, scopeList, tokenFacts } from './token-facts.js';

const isoOrNull = (at: number | null) => (at === null ? null : iso(at));

export async function healthOf(deps: Pick<AppDeps, 'storage' | 'tokenCipher' | 'networks'>, account: SocialAccount): Promise<AccountHealth> {
  const row = await readHealth(deps.storage.driver, account.profileId, account.platform);
  let tokens: Record<string, unknown> | null = null;
  try {
    tokens = account.tokensEncrypted ? openTokens(deps.tokenCipher, account, account.tokensEncrypted) : null;
  } catch {
    // Tokens sealed under a key this instance no longer has: the rest of the health still shows.
  }
  const facts = tokenFacts(tokens);
  const granted = scopeList(facts?.scope ?? null);
  const needed = deps.networks.oauth(account.platform, 'instagram')?.definition.scopes ?? [];
  const current = row && row.networkUserId === account.networkUserId ? row : null;
  return {
    platform: account.platform,
    status: current?.status ?? 'healthy',
    lastRefreshedAt: isoOrNull(current?.lastRefreshedAt ?? null),
    nextRefreshAt: isoOrNull(current?.nextRefreshAt ?? null),
    tokenExpiresAt: isoOrNull(facts?.expiresAt ?? null),
    lastError: current?.lastError ? { ...current.lastError, at: iso(current.lastError.at) } : null,
    scopes: { granted, needed: [...needed], missing: missingScopes(granted, needed) },
  };
}
