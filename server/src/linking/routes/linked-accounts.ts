/**
 * @module
 * Linked accounts of a profile, with the API key:
 * - `DELETE /api/profiles/social` `{platform}` unlinks (spec 4.1); 200 even when nothing was linked
 * - `GET    /api/user` lists the profile's linked accounts, each with its health (account-health/health-view.ts)
 */
import { Hono } from 'hono';
import { ErrorCode, UNLINKABLE_NETWORKS, type UserResponse } from '@social-link-kit/protocol';
import { iso } from '../../core/clock.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { ApiError } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { unlinkAccount } from '../unlink.js';
import { postQuotaSummary } from '../../publishing/routes.js';
import { healthOf } from '../../account-health/health-view.js';
import { suspensionOf } from '../../accounts/suspension.js';
import { describe } from '../../core/openapi/describe.js';
import { UnlinkRequest } from '@social-link-kit/protocol/api-requests.js';
import { UnlinkResponse, UserResponse as UserAnswer } from '@social-link-kit/protocol';

export function unlinkRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.delete('/', describe({ summary: 'Unlink a network from the profile', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', request: UnlinkRequest, response: UnlinkResponse, name: 'UnlinkResponse', errors: [163] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, 'unlink');
    const platform = body.platform;
    if (typeof platform !== 'string' || !(UNLINKABLE_NETWORKS as readonly string[]).includes(platform)) {
      throw new ApiError(400, ErrorCode.platformInvalid, '"platform" is missing or not a network that can be unlinked.', {
        action: 'unlink',
        details: { validValues: UNLINKABLE_NETWORKS },
      });
    }
    const profile = c.get('profile');
    await unlinkAccount(deps.storage, profile.id, platform as (typeof UNLINKABLE_NETWORKS)[number], deps.clock());
    return c.json({ status: 'success', platform, refId: profile.refId });
  });
  return routes;
}

export function userRoutes(deps: Pick<AppDeps, 'storage' | 'clock' | 'networks' | 'tokenCipher' | 'publishing'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', describe({ summary: 'The profile and its linked accounts (each with its health)', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', response: UserAnswer, name: 'UserResponse' }), async (c) => {
    const profile = c.get('profile');
    const accounts = await deps.storage.linking.listSocialAccounts(profile.id);
    const suspension = await suspensionOf(deps.storage.driver, profile.id);
    const response: UserResponse = {
      status: 'success',
      refId: profile.refId,
      title: profile.title,
      activeSocialAccounts: accounts.map((account) => account.platform),
      ...(deps.publishing && (await postQuotaSummary(deps.publishing, profile.id, c.get('account').plan, deps.clock()))),
      // Read from the linked threads account (false without one, or when threads cannot be asked now).
      ...(deps.publishing && { isEligibleForGeoRestrictions: (await deps.publishing.geoEligible(profile.id)) === true }),
      ...(suspension && { suspension }),
      displayNames: await Promise.all(
        accounts.map(async (account) => ({
          platform: account.platform,
          displayName: account.displayName,
          username: account.username,
          id: account.networkUserId,
          linkedAt: iso(account.linkedAt),
          health: await healthOf(deps, account),
        })),
      ),
    };
    return c.json(response);
  });
  return routes;
}
