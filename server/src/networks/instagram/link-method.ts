/**
 * @module
 * Which instagram login a session uses: the session's own `instagramLinkMethod`, else the account-wide setting.
 * One place, so the start of a connection and its callback always pick the same network definition.
 */
import type { InstagramLinkMethod } from '../../../../src/protocol/index.js';
import type { LinkSessionRecord, Storage } from '../../core/db/storage-types.js';

export async function instagramLinkMethodOf(storage: Storage, session: LinkSessionRecord): Promise<InstagramLinkMethod> {
  if (session.instagramLinkMethod) return session.instagramLinkMethod;
  return (await storage.findAccount(session.accountId))?.instagramLinkMethod ?? 'instagram';
}
