/**
 * @module
 * A code reached the bot from a chat: link that chat to the code's session, once. Shared by the bot's webhook and
 * the sandbox's simulated bot.
 */
import type { AppDeps } from '../../context.js';
import { hashSecret } from '../../core/tokens.js';
import { commitLinkedAccount } from '../../linking/service.js';

export interface TelegramChat {
  id?: number;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

/**
 * True when the code was valid and unused and its session took the account. `tokensFor`: the tokens the link
 * stores, made only once the code is known good (the sandbox's stand-in bot passes its chat's bot token); without
 * it the link stores none (the real bot: the service's TELEGRAM_BOT_TOKEN sends to every linked chat).
 */
export async function completeTelegramCode(
  deps: AppDeps,
  code: string,
  chat: TelegramChat & { id: number },
  tokensFor?: (chatId: string) => Promise<Record<string, unknown>>,
): Promise<boolean> {
  const now = deps.clock();
  const used = await deps.storage.linking.useTelegramCode(hashSecret(code), now);
  if (!used) return false;
  const session = await deps.storage.linking.findLinkSessionById(used.sessionId);
  if (!session) return false;
  const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || null);
  await commitLinkedAccount(deps, session, {
    platform: 'telegram',
    networkUserId: String(chat.id),
    displayName: name,
    username: chat.username ?? null,
    tokens: tokensFor ? await tokensFor(String(chat.id)) : null,
    linkedAt: now,
    sandbox: deps.networks.runsOnSandbox('telegram'),
  });
  return true;
}
