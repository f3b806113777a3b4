/**
 * @module
 * The hosted page's API, authenticated by the link token (`Authorization: Bearer <token>`):
 * - `GET /api/link/session`  the session view: profile title, allowed networks (linked, sandbox or real), expiry, locale, branding
 */
import { Hono } from 'hono';
import { NETWORKS, connectMethodOf, type SessionView } from '../../../../src/protocol/index.js';
import { iso } from '../../core/clock.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { isSandboxNetwork } from '../sandbox-network.js';
import { instagramLinkMethodOf, linkInvalidError } from '../service.js';

export function linkRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/session', async (c) => {
    const session = c.get('linkSession');
    const profile = await deps.storage.accounts.findProfileById(session.profileId);
    if (!profile) throw linkInvalidError();
    const instagramLinkMethod = await instagramLinkMethodOf(deps, session);
    const linked = new Map((await deps.storage.linking.listSocialAccounts(profile.id)).map((a) => [a.platform, a]));
    const view: SessionView = {
      status: 'success',
      // A legacy JWT link's stand-in session is not an API object (spec 5.5): its id is never shown.
      sessionId: session.legacy ? 'legacy' : session.id,
      title: profile.title,
      expiresAt: iso(session.expiresAt),
      serverTime: iso(deps.clock()),
      origin: session.origin,
      redirect: session.redirect,
      instagramLinkMethod,
      networks: (session.allowedSocial ?? [...NETWORKS]).map((platform) => {
        const linkedAccount = linked.get(platform);
        return {
          platform,
          method: connectMethodOf(platform),
          linked: linkedAccount !== undefined,
          displayName: linkedAccount?.displayName ?? null,
          username: linkedAccount?.username ?? null,
          sandbox: isSandboxNetwork(deps, platform, instagramLinkMethod),
        };
      }),
      completedNetworks: session.completedNetworks,
      embeddable: (await deps.storage.accounts.findAccount(session.accountId))?.maxPack ?? false,
      locale: session.locale,
      branding: await deps.storage.accounts.getBranding(session.accountId),
    };
    return c.json(view);
  });

  return routes;
}
