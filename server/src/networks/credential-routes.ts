/**
 * @module
 * The two networks without OAuth, from the hosted page (link token):
 * - `POST /api/link/connect/bluesky`   `{handle, appPassword}` → verified against the PDS, then stored
 * - `POST /api/link/connect/telegram`  → a short-lived code for the bot; the bot's webhook completes the link
 *   (`POST /webhooks/telegram/:secret`, telegram-webhook.ts), seen only through the session read.
 */
import { Hono } from 'hono';
import { ErrorCode } from '../../../src/protocol/index.js';
import type { AppDeps, AppEnv } from '../context.js';
import { tokenAad } from '../core/crypto/token-cipher.js';
import { ApiError, badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { BlueskyLoginError, createBlueskySession } from './bluesky/pds-login.js';
import { assertConnectStartAllowed } from '../core/limits/enforce-limit.js';
import { hashSecret } from '../core/tokens.js';
import { randomBytes } from 'node:crypto';

const TELEGRAM_CODE_TTL_MS = 10 * 60_000;
const HANDLE = /^@?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,}$/i;
/** No 0/O/1/I: the code is typed by hand into a chat. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function connectCredentialRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  const requireAllowed = (allowed: string[] | null, platform: 'bluesky' | 'telegram') => {
    if (allowed && !allowed.includes(platform)) {
      throw new ApiError(403, ErrorCode.networkNotAllowed, `${platform} is not offered by this link.`, { action: 'link session' });
    }
  };

  routes.post('/connect/bluesky', async (c) => {
    const session = c.get('linkSession');
    requireAllowed(session.allowedSocial, 'bluesky');
    await assertConnectStartAllowed(deps, session.id);
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
      login = await createBlueskySession(pdsUrl, handle, appPassword);
    } catch (error) {
      if (!(error instanceof BlueskyLoginError)) throw error;
      throw new ApiError(error.kind === 'credentials' ? 400 : 502, ErrorCode.connectFailed, error.message, { action: 'link session' });
    }
    const now = deps.clock();
    const tokensEncrypted = deps.tokenCipher.encrypt(
      JSON.stringify({ accessJwt: login.accessJwt, refreshJwt: login.refreshJwt, pdsUrl, obtainedAt: now }),
      tokenAad(session.profileId, 'bluesky', login.did),
    );
    const result = await deps.storage.linkAccount(
      session.id,
      { profileId: session.profileId, platform: 'bluesky', networkUserId: login.did, displayName: login.handle, username: login.handle, tokensEncrypted, linkedAt: now },
      now,
    );
    if (!result.stored) throw new ApiError(401, ErrorCode.linkInvalid, 'This link has expired or is no longer valid.', { action: 'link session' });
    return c.json({ status: 'success', platform: 'bluesky', displayName: login.handle });
  });

  routes.post('/connect/telegram', async (c) => {
    const session = c.get('linkSession');
    requireAllowed(session.allowedSocial, 'telegram');
    await assertConnectStartAllowed(deps, session.id);
    const bot = deps.networks.telegramBotUsername;
    if (!bot) throw new ApiError(503, ErrorCode.networkUnavailable, 'Telegram cannot be connected on this service right now.', { action: 'link session' });
    const now = deps.clock();
    const code = [...randomBytes(8)].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
    const expiresAt = Math.min(now + TELEGRAM_CODE_TTL_MS, session.expiresAt);
    await deps.storage.createTelegramCode({ codeHash: hashSecret(code), sessionId: session.id, createdAt: now, expiresAt, usedAt: null });
    return c.json({
      status: 'success',
      platform: 'telegram',
      code,
      botUsername: bot,
      deepLink: `https://t.me/${bot}?start=${code}`,
      expiresAt: new Date(expiresAt).toISOString(),
    });
  });

  return routes;
}
