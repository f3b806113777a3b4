/**
 * @module
 * The per-request values middleware sets on a route's context (`c.get('profile')`…). What the app is built from is
 * in app-deps.ts (built once by compose.ts).
 */
import type { Account, LinkSessionRecord, Profile } from './core/db/storage-types.js';

export interface AppEnv {
  Variables: {
    account: Account;
    /** The Primary Profile, or the user profile chosen by `Profile-Key`. */
    profile: Profile;
    /** Set on link-token routes (the hosted page). */
    linkSession: LinkSessionRecord;
    /** Set by the access log middleware; echoed as `X-Request-Id`. */
    requestId: string;
  };
}
