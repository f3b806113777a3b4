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

/** True when the code was valid and unused and its session took the account. */
export async function completeTelegramCode(deps: AppDeps, code: string, chat: TelegramChat & { id: number }): Promise<boolean> {
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
    tokens: null,
    linkedAt: now,
    sandbox: deps.networks.runsOnSandbox('telegram'),
  });
  return true;
}
