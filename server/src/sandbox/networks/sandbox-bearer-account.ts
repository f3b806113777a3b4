/**
 * @module
 * Which sandbox account a Bearer token stands for, for the sandbox networks whose accounts are addressed by that
 * account (gmb, snapchat): a token the sandbox issued (`POST /api/sandbox/accounts`) names its account; a token of the
 * sandbox authorization server (accounts linked through the consent page) names the user in its verified `sub`,
 * which is also the id the account was linked with. Null when the token is missing, unknown or expired.
 */
import type { AppDeps } from '../../context.js';
import { bearerOf, checkAuthorizationServerToken, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';

export async function sandboxAccountOfBearer(deps: AppDeps, platform: string, authorization: string | undefined): Promise<string | null> {
  const token = bearerOf(authorization);
  const now = deps.clock();
  const check = await checkSandboxToken(sandboxStoreOf(deps.storage), token, platform, 'access', now);
  if (check.ok) return check.accountId;
  if (check.reason !== 'invalid' || !token) return null;
  const server = await checkAuthorizationServerToken(deps.networks.sandboxIssuer, token, now);
  if (!server.ok) return null;
  // Verified above; the payload is the middle part.
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
  return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : null;
}
