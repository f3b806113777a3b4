/**
 * @module
 * The Telegram bot's webhook: `POST /webhooks/telegram/:secret`. Telegram sends the secret both in the path we
 * registered and in `X-Telegram-Bot-Api-Secret-Token`; both must match `TELEGRAM_WEBHOOK_SECRET`. A message
 * `/start <code>` (or just the code) from a chat links that chat to the code's session. Telegram retries on
 * non-2xx, so every well-formed update gets 200, whatever its content.
 */
import { badRequest } from '../../core/errors.js';
import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { completeTelegramCode, type TelegramChat } from '../telegram-code.js';
import { describe, content } from '../../core/openapi/describe.js';
import { TelegramUpdate } from '@social-link-kit/protocol/api-requests.js';

export function telegramWebhookRoutes(deps: Pick<AppDeps, 'storage' | 'clock' | 'networks' | 'tokenCipher'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/:secret', describe({ summary: "The Telegram bot's webhook (completes bot-code links)", tag: 'Network callbacks', auth: 'telegramSecret', request: TelegramUpdate, response: content('application/json', '`{ok: true}`') }), async (c) => {
    const secret = deps.networks.telegramWebhookSecret;
    if (!secret || !same(c.req.param('secret'), secret) || !same(c.req.header('x-telegram-bot-api-secret-token') ?? '', secret)) {
      return c.json({ ok: false }, 401);
    }
    const update: unknown = await c.req.json().catch(() => undefined);
    // Telegram always sends a JSON object; anything else is not from Telegram: 400, never 500.
    if (typeof update !== 'object' || update === null || Array.isArray(update)) {
      const error = badRequest('The update must be a JSON object.', undefined, 'telegram');
      return c.json(error.toEnvelope(), 400);
    }
    // Fields of an unexpected type are ignored like any update that carries no code.
    const message = (update as { message?: unknown }).message;
    const fields = typeof message === 'object' && message !== null ? (message as { text?: unknown; chat?: unknown }) : {};
    const text = typeof fields.text === 'string' ? fields.text.trim() : '';
    const chat = typeof fields.chat === 'object' && fields.chat !== null ? (fields.chat as TelegramChat) : undefined;
    const code = /^(?:\/start\s+)?([A-Z0-9]{8})$/i.exec(text)?.[1]?.toUpperCase();
    if (!code || typeof chat?.id !== 'number') return c.json({ ok: true });
    await completeTelegramCode(deps, code, { ...chat, id: chat.id });
    return c.json({ ok: true });
  });
  return routes;
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
