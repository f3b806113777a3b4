/**
 * @module
 * bluesky links with a handle and an app password from the hosted page:
 * `POST /api/link/connect/bluesky` `{handle, appPassword}` → verified against the PDS (pds-login.ts), then stored.
 */
import { ErrorCode, type CredentialsConnectResponse } from '@social-link-kit/protocol';
import { ApiError, badRequest } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { commitLinkedAccount, linkInvalidError } from '../../linking/service.js';
import type { HostedConnectLink } from '../link.js';
import { BlueskyLoginError, createBlueskySession } from './pds-login.js';

const HANDLE = /^@?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i;

export const blueskyLink = {
  method: 'credentials',
  async connect(deps, c, session) {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, 'link session');
    const handle = typeof body.handle === 'string' ? body.handle.trim().replace(/^@/, '') : '';
    const appPassword = typeof body.appPassword === 'string' ? body.appPassword.trim() : '';
    if (!HANDLE.test(handle) || appPassword.length < 4 || appPassword.length > 128) {
      throw badRequest('Enter your Bluesky handle (like name.bsky.social) and an app password.', { fields: ['handle', 'appPassword'] }, 'link session');
    }
    const pdsUrl = deps.networks.blueskyPdsUrl;
    if (!pdsUrl) throw new ApiError(503, ErrorCode.networkUnavailable, 'Bluesky cannot be connected on this service right now.', { action: 'link session' });
    let login;
    try {
      login = await createBlueskySession(deps.networks.fetch, pdsUrl, handle, appPassword);
    } catch (error) {
      if (!(error instanceof BlueskyLoginError)) throw error;
      throw new ApiError(error.kind === 'credentials' ? 400 : 502, ErrorCode.connectFailed, error.message, { action: 'link session' });
    }
    const now = deps.clock();
    const result = await commitLinkedAccount(deps, session, {
      platform: 'bluesky',
      networkUserId: login.did,
      displayName: login.handle,
      username: login.handle,
      tokens: { accessJwt: login.accessJwt, refreshJwt: login.refreshJwt, pdsUrl, obtainedAt: now },
      linkedAt: now,
      sandbox: deps.networks.runsOnSandbox('bluesky'),
    });
    if (!result.stored) throw linkInvalidError('This link has expired or is no longer valid.');
    const answer: CredentialsConnectResponse = { status: 'success', platform: 'bluesky', displayName: login.handle };
    return c.json(answer);
  },
} satisfies HostedConnectLink;
