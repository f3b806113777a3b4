/**
 * @module
 * The fresh link in an `account.needs_relink` event (as Plaid's update mode gives one): made when the event is sent,
 * for each delivery attempt, never when it is queued. A linking URL is a password, so the outbox row and the
 * delivery log keep the event as queued (the call that makes a link) and only the body that leaves carries the URL
 * (and is signed with it). The session is the one the integrator's `POST /api/profiles/link-sessions {relink}` makes
 * (same rules: direct mode, the account's first linking domain, the same rate limit; the longest lifetime the
 * account's links may have).
 */
import type { AccountRelinkCall } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import type { WebhookDelivery } from '../core/db/storage-types.js';
import { createLinkSession } from '../linking/routes/link-sessions.js';
import { MAX_EXPIRES_IN_MINUTES } from '../linking/session-request.js';

/** The body to send for `delivery`: a needs_relink event gets its fresh link; every other event goes as stored. */
export function withFreshRelinkLink(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'mailer' | 'limiter' | 'log'>): (delivery: WebhookDelivery) => Promise<string> {
  return async (delivery) => {
    const event = JSON.parse(delivery.payload) as { event?: unknown; relink?: AccountRelinkCall };
    if (event.event !== 'account.needs_relink' || !event.relink) return delivery.payload;
    const profile = await deps.storage.accounts.findProfileById(delivery.profileId);
    const account = profile && (await deps.storage.accounts.findAccount(profile.accountId));
    // A deleted profile's events are dropped with its registrations; until then the event goes without a link.
    if (!profile || !account) return delivery.payload;
    // It must outlive a message to the user: as long as the account's links may live (max-pack), else the default.
    const lifetime = account.maxPack ? { expiresIn: MAX_EXPIRES_IN_MINUTES } : {};
    const session = await createLinkSession(deps, { account, profile }, async () => ({ ...event.relink!.body, domain: account.domains[0], ...lifetime }));
    return JSON.stringify({ ...event, relink: { ...event.relink, url: session.url, expiresAt: session.expiresAt } });
  };
}
