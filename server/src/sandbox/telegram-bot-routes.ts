/**
 * @module
 * The sandbox's stand-in Telegram bot: `POST /sandbox/telegram-bot` with `{code}` does what the real bot's webhook
 * does when a chat sends the code, for a sandbox chat, so telegram can be completed from the hosted page without
 * Telegram. Mounted only while telegram runs on the sandbox bot.
 */
import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { completeTelegramCode } from '../networks/telegram/complete-with-code.js';

const ACTION = 'sandbox telegram bot';

export function sandboxTelegramBotRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/telegram-bot', async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const code = typeof body.code === 'string' ? body.code.trim().toUpperCase() : '';
    if (!/^[A-Z0-9]{8}$/.test(code)) throw badRequest('"code" must be the 8-character code the page shows.', undefined, ACTION);
    const linked = await completeTelegramCode(deps, code, { id: 700_000_000 + (parseInt(code.slice(0, 4), 36) % 1_000_000), first_name: 'Sandbox', last_name: 'Chat', username: 'sandbox_chat' });
    return c.json({ status: 'success', linked });
  });
  return routes;
}
