/**
 * @module
 * telegram links through a bot: `POST /api/link/connect/telegram` → a short-lived code for the bot; the bot's
 * webhook (webhook-routes.ts) completes the link, which the hosted page sees only through the session read.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode, type BotCodeResponse } from '@social-link-kit/protocol';
import { ApiError } from '../../core/errors.js';
import { hashSecret } from '../../core/tokens.js';
import type { HostedConnectLink } from '../link.js';

const TELEGRAM_CODE_TTL_MS = 10 * 60_000;
/** No 0/O/1/I: the code is typed by hand into a chat. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const telegramLink = {
  method: 'bot',
  async connect(deps, c, session) {
    const bot = deps.networks.telegramBotUsername;
    if (!bot) throw new ApiError(503, ErrorCode.networkUnavailable, 'Telegram cannot be connected on this service right now.', { action: 'link session' });
    const now = deps.clock();
    const code = [...randomBytes(8)].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
    const expiresAt = Math.min(now + TELEGRAM_CODE_TTL_MS, session.expiresAt);
    await deps.storage.linking.createTelegramCode({ codeHash: hashSecret(code), sessionId: session.id, createdAt: now, expiresAt, usedAt: null });
    const answer: BotCodeResponse = {
      status: 'success',
      platform: 'telegram',
      code,
      botUsername: bot,
      deepLink: `https://t.me/${bot}?start=${code}`,
      expiresAt: new Date(expiresAt).toISOString(),
    };
    return c.json(answer);
  },
} satisfies HostedConnectLink;
