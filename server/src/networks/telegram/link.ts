/**
 * @module
 * telegram links through a bot: `POST /api/link/connect/telegram` → a short-lived code for the bot; the bot's
 * webhook (linking/routes/telegram-webhook.ts) completes the link, which the hosted page sees only through the
 * session read.
 */
import type { BotLink } from '../link.js';

export const telegramLink = {
  method: 'bot',
  deepLink: (botUsername, code) => `https://t.me/${botUsername}?start=${code}`,
  identityOf(chat, tokens, sandbox, now) {
    const name = chat.title ?? ([chat.first_name, chat.last_name].filter(Boolean).join(' ') || null);
    return { platform: 'telegram', networkUserId: String(chat.id), displayName: name, username: chat.username ?? null, tokens, linkedAt: now, sandbox };
  },
} satisfies BotLink;
