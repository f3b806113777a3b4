/**
 * @module
 * bluesky links with a handle and an app password from the hosted page:
 * `POST /api/link/connect/bluesky` `{handle, appPassword}` → verified against the PDS (pds-login.ts); linking
 * stores the account.
 */
import { ErrorCode } from '@social-link-kit/protocol';
import { ApiError, badRequest } from '../../core/errors.js';
import type { CredentialsLink } from '../link.js';
import { BlueskyLoginError, createBlueskySession } from './pds-login.js';

const HANDLE = /^@?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i;

export const blueskyLink = {
  method: 'credentials',
  async verify(body, env) {
    const handle = typeof body.handle === 'string' ? body.handle.trim().replace(/^@/, '') : '';
    const appPassword = typeof body.appPassword === 'string' ? body.appPassword.trim() : '';
    if (!HANDLE.test(handle) || appPassword.length < 4 || appPassword.length > 128) {
      throw badRequest('Enter your Bluesky handle (like name.bsky.social) and an app password.', { fields: ['handle', 'appPassword'] }, 'link session');
    }
    const pdsUrl = env.loginUrl;
    if (!pdsUrl) throw new ApiError(503, ErrorCode.networkUnavailable, 'Bluesky cannot be connected on this service right now.', { action: 'link session' });
    let login;
    try {
      login = await createBlueskySession(env.fetch, pdsUrl, handle, appPassword);
    } catch (error) {
      if (!(error instanceof BlueskyLoginError)) throw error;
      throw new ApiError(error.kind === 'credentials' ? 400 : 502, ErrorCode.connectFailed, error.message, { action: 'link session' });
    }
    return {
      platform: 'bluesky',
      networkUserId: login.did,
      displayName: login.handle,
      username: login.handle,
      tokens: { accessJwt: login.accessJwt, refreshJwt: login.refreshJwt, pdsUrl, obtainedAt: env.now },
      linkedAt: env.now,
      sandbox: env.sandbox,
    };
  },
} satisfies CredentialsLink;
