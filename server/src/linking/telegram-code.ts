/**
 * @module
 * The bot connect method's codes, on linking's side: a short-lived code for a session (`POST
 * /api/link/connect/telegram`), and a code that reached the bot from a chat, which links that chat to the code's
 * session once. Completing is shared by the bot's webhook and the sandbox's simulated bot.
 */
import { randomBytes } from 'node:crypto';
import type { BotCodeResponse } from '@social-link-kit/protocol';
import type { AppDeps } from '../app-deps.js';
import type { LinkSessionRecord } from '../core/db/storage-types.js';
import { hashSecret } from '../core/tokens.js';
import type { BotChat } from '../networks/link.js';
import { telegramLink } from '../networks/telegram/link.js';
import { commitLinkedAccount } from './service.js';

export type TelegramChat = Partial<BotChat>;

const TELEGRAM_CODE_TTL_MS = 10 * 60_000;
/** No 0/O/1/I: the code is typed by hand into a chat. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A new code for `session`, for the bot `botUsername`: what the hosted page shows. */
export async function createTelegramCode(deps: Pick<AppDeps, 'storage' | 'clock'>, session: LinkSessionRecord, botUsername: string): Promise<BotCodeResponse> {
  const now = deps.clock();
  const code = [...randomBytes(8)].map((byte) => CODE_ALPHABET[byte % CODE_ALPHABET.length]).join('');
  const expiresAt = Math.min(now + TELEGRAM_CODE_TTL_MS, session.expiresAt);
  await deps.storage.linking.createTelegramCode({ codeHash: hashSecret(code), sessionId: session.id, createdAt: now, expiresAt, usedAt: null });
  return {
    status: 'success',
    platform: 'telegram',
    code,
    botUsername,
    deepLink: telegramLink.deepLink(botUsername, code),
    expiresAt: new Date(expiresAt).toISOString(),
  };
}

/**
 * True when the code was valid and unused and its session took the account. `tokensFor`: the tokens the link
 * stores, made only once the code is known good (the sandbox's stand-in bot passes its chat's bot token); without
 * it the link stores none (the real bot: the service's TELEGRAM_BOT_TOKEN sends to every linked chat).
 */
export async function completeTelegramCode(
  deps: Pick<AppDeps, 'storage' | 'clock' | 'networks' | 'tokenCipher'>,
  code: string,
  chat: BotChat,
  tokensFor?: (chatId: string) => Promise<Record<string, unknown>>,
): Promise<boolean> {
  const now = deps.clock();
  const used = await deps.storage.linking.useTelegramCode(hashSecret(code), now);
  if (!used) return false;
  const session = await deps.storage.linking.findLinkSessionById(used.sessionId);
  if (!session) return false;
  const tokens = tokensFor ? await tokensFor(String(chat.id)) : null;
  await commitLinkedAccount(deps, session, telegramLink.identityOf(chat, tokens, deps.networks.runsOnSandbox('telegram'), now));
  return true;
}
