/**
 * @module
 * The hosted page's view of a link session (`SessionView`): profile title, allowed networks and their linked
 * state (sandbox or real), expiry, locale, the account's branding and whether the widget may show it (frame or popup). Built for `GET /api/link/session` and, on the page's first load, inlined into the page's HTML so
 * the page can render without a second round trip. It never contains the link token.
 */
import { NETWORKS, connectMethodOf, type SessionView } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { AppDeps } from '../app-deps.js';
import type { LinkSessionRecord } from '../core/db/storage-types.js';
import { instagramLinkMethodOf } from './service.js';
import { accountsNeedingAttention } from '../account-health/health-recorder.js';
import { recentNetworkStatuses } from '../account-health/network-status.js';

/** The view of a usable session; null when its profile is gone (the link no longer works). */
export async function buildSessionView(deps: Pick<AppDeps, 'storage' | 'clock' | 'networks'>, session: LinkSessionRecord): Promise<SessionView | null> {
  const profile = await deps.storage.accounts.findProfileById(session.profileId);
  if (!profile) return null;
  const linked = new Map((await deps.storage.linking.listSocialAccounts(profile.id)).map((a) => [a.platform, a]));
  const attention = await accountsNeedingAttention(deps.storage.driver, profile.id);
  const statuses = new Map((await recentNetworkStatuses(deps.storage.driver, deps.clock())).map((entry) => [entry.platform, entry.status]));
  const account = await deps.storage.accounts.findAccount(session.accountId);
  const instagramLinkMethod = await instagramLinkMethodOf(deps, session);
  return {
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
        sandbox: deps.networks.runsOnSandbox(platform, instagramLinkMethod),
        // No credentials and no sandbox for it (production): listed, but said to be unavailable, never faked.
        ...(!deps.networks.offers(platform, instagramLinkMethod) && { available: false as const }),
        ...(linkedAccount && attention.has(platform) && { attention: attention.get(platform) }),
        ...(statuses.get(platform) !== 'operational' && { networkStatus: statuses.get(platform) as 'degraded' | 'down' }),
      };
    }),
    completedNetworks: session.completedNetworks,
    embeddable: account?.maxPack ?? false,
    locale: session.locale,
    branding: await deps.storage.accounts.getBranding(session.accountId),
  };
}
