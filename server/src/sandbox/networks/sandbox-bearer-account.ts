/**
 * @module
 * Which sandbox account a Bearer token stands for, for the sandbox networks whose accounts are addressed by that
 * account (gmb, snapchat): every token the sandbox issued names its user (sandbox-users.ts). Null when the token is
 * missing, unknown, expired or another network's.
 */
import type { AppDeps } from '../../app-deps.js';
import { bearerOf, checkSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';

export async function sandboxAccountOfBearer(deps: AppDeps, platform: string, authorization: string | undefined): Promise<string | null> {
  const check = await checkSandboxToken(sandboxStoreOf(deps.storage), bearerOf(authorization), platform, 'access', deps.clock());
  return check.ok ? check.accountId : null;
}
