/**
 * @module
 * `GET /api/profiles/health` (API key, optional Profile-Key): every linked account of the profile with its health.
 * Under `/profiles` because health belongs to the profile's linked accounts, next to `DELETE /profiles/social`.
 * `GET /api/networks/status` (API key): each network's status (network-status.ts), the same the hosted page shows.
 */
import { Hono } from 'hono';
import type { NetworkStatusResponse, ProfileHealthResponse } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { healthOf } from './health-view.js';
import { networkStatuses } from './network-status.js';
import { describe } from '../core/openapi/describe.js';
import { NetworkStatusResponse as NetworkStatusAnswer, ProfileHealthResponse as ProfileHealthAnswer } from '@social-link-kit/protocol';

export function profileHealthRoutes(deps: Pick<AppDeps, 'storage' | 'networks' | 'tokenCipher'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', describe({ summary: "Health of the profile's linked accounts (status, renewals, last error, scopes)", tag: 'Profiles', auth: 'apiKeyAndProfileKey', response: ProfileHealthAnswer, name: 'ProfileHealthResponse' }), async (c) => {
    const profile = c.get('profile');
    const accounts = await deps.storage.linking.listSocialAccounts(profile.id);
    const response: ProfileHealthResponse = { status: 'success', refId: profile.refId, accounts: await Promise.all(accounts.map((account) => healthOf(deps, account))) };
    return c.json(response);
  });
  return routes;
}

export function networkStatusRoutes(deps: Pick<AppDeps, 'storage' | 'clock'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', describe({ summary: "Each network's status from recent connect and publish outcomes, or the operator's override", tag: 'Profiles', auth: 'apiKey', response: NetworkStatusAnswer, name: 'NetworkStatusResponse' }), async (c) => {
    const response: NetworkStatusResponse = { status: 'success', networks: await networkStatuses(deps.storage.driver, deps.clock()) };
    return c.json(response);
  });
  return routes;
}
