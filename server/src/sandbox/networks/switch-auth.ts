/**
 * @module
 * Who may work the sandbox's test switches (an account's analytics faults, audience comments and messages): the
 * integrator whose profile linked that sandbox account, with its API key, like a payment sandbox's test helpers.
 * Another integrator (or nobody) cannot make a tenant's account fail or put words under its posts.
 */
import type { Context } from 'hono';
import { ErrorCode } from '@social-link-kit/protocol';
import { authenticateApiKey } from '../../accounts/api-key-auth.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';

/** Throws 401 without a valid API key, 404 when none of its profiles has linked that sandbox account. */
export async function requireLinkingIntegrator(deps: AppDeps, c: Context<AppEnv>, platform: string, accountId: string): Promise<void> {
  const { account } = await authenticateApiKey(deps, c.req.header('authorization'), undefined);
  const linked = await deps.storage.driver.get(
    'SELECT 1 AS found FROM social_accounts s JOIN profiles p ON p.id = s.profile_id WHERE p.account_id = ? AND s.platform = ? AND s.network_user_id = ?',
    [account.id, platform, accountId],
  );
  if (!linked) {
    throw new ApiError(404, ErrorCode.badRequest, `No ${platform} sandbox account ${accountId} is linked to a profile of this API key.`, { action: 'sandbox switch' });
  }
}
