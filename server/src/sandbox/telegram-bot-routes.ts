/**
 * @module
 * The sandbox's stand-in Telegram bot: `POST /sandbox/telegram-bot` with `{code}` does what the real bot's webhook
 * does when a chat sends the code, for a sandbox chat, so telegram can be completed from the hosted page without
 * Telegram. The link stores a sandbox bot token for the chat (the sandbox Bot API accepts it for that chat only).
 * Mounted only while telegram runs on the sandbox bot.
 */
import { Hono } from 'hono';
import { randomInt } from 'node:crypto';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { completeTelegramCode } from '../linking/telegram-code.js';
import { sandboxStoreOf } from './networks/sandbox-tokens.js';
import { issueSandboxTelegramTokens } from './networks/telegram-bot-api.js';

const ACTION = 'sandbox telegram bot';

export function sandboxTelegramBotRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/telegram-bot', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const code = typeof body.code === 'string' ? body.code.trim().toUpperCase() : '';
    if (!/^[A-Z0-9]{8}$/.test(code)) throw badRequest('"code" must be the 8-character code the page shows.', undefined, ACTION);
    // A chat of its own for every link (random among nine billion ids, no longer derived from the code, so two
    // tenants do not end up in one chat), with a bot token that opens only that chat.
    const chat = { id: randomInt(1_000_000_000, 9_999_999_999), first_name: 'Sandbox', last_name: 'Chat', username: 'sandbox_chat' };
    const linked = await completeTelegramCode(deps, code, chat, (chatId) => issueSandboxTelegramTokens(sandboxStoreOf(deps.storage), chatId, deps.clock()));
    return c.json({ status: 'success', linked });
  });
  return routes;
}
