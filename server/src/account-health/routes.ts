/**
 * @module
 * `GET /api/profiles/health` (API key, optional Profile-Key): every linked account of the profile with its health.
 * Under `/profiles` because health belongs to the profile's linked accounts, next to `DELETE /profiles/social`.
 */
import { Hono } from 'hono';
import type { ProfileHealthResponse } from '../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../context.js';
import { healthOf } from './health-view.js';

export function profileHealthRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/', async (c) => {
    const profile = c.get('profile');
    const accounts = await deps.storage.linking.listSocialAccounts(profile.id);
    const response: ProfileHealthResponse = { status: 'success', refId: profile.refId, accounts: await Promise.all(accounts.map((account) => healthOf(deps, account))) };
    return c.json(response);
  });
  return routes;
}
