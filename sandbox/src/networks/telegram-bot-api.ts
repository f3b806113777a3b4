/**
 * @module
 * The sandbox Telegram Bot API at `/sandbox/telegram/bot<token>/<method>`, in the Bot API's wire format
 * (`{ok: true, result}` / `{ok: false, error_code, description, parameters?: {retry_after}}`): `sendMessage`
 * (1-4,096 characters), `sendPhoto` and `sendVideo` (media by URL, caption ≤1,024), `sendMediaGroup` (2-10 items, the
 * caption on the first), `deleteMessage`. The token in the path is a bot token this sandbox issued when a chat was
 * linked (sandbox-tokens.ts, platform `telegram`, the chat id as its user; 401 Unauthorized otherwise), and it acts
 * only in its own chat: any other `chat_id` (another tenant's chat, an `@username`) is answered 400 "Bad Request:
 * chat not found", as Telegram answers a bot for a chat it is not in, whether or not that chat exists.
 * Message ids count up per chat, as Telegram's do. Fault markers in the text or caption: `[[fault:429]]`
 * (retry_after 30), 400 (chat not found), 403 (bot removed from the channel), 500, 502.
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxMedia, SandboxNetworkStore, SandboxPost } from './store.js';
import { answerOwnErrors } from './own-errors.js';

/**
 * The tokens a sandbox telegram link stores: a bot token that opens only `chatId` (no expiry, like a real bot's).
 * Issued by the sandbox side of a link (the accounts shortcut, the stand-in bot), never by the real bot's webhook.
 */
export async function issueSandboxTelegramTokens(store: SandboxNetworkStore, chatId: string, now: number): Promise<{ botToken: string }> {
  return { botToken: await issueSandboxToken(store, { platform: 'telegram', accountId: chatId, kind: 'access', ttlMs: null }, now) };
}

export const TELEGRAM_TEXT_MAX = 4096;
export const TELEGRAM_CAPTION_MAX = 1024;

class BotApiError extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly retryAfter?: number,
  ) {
    super(description);
  }
}

const FAULTS: Record<string, { code: number; description: string; retryAfter?: number }> = {
  '400': { code: 400, description: 'Bad Request: chat not found' },
  '403': { code: 403, description: 'Forbidden: bot was kicked from the channel chat' },
  '429': { code: 429, description: 'Too Many Requests: retry after 30', retryAfter: 30 },
  '500': { code: 500, description: 'Internal Server Error' },
  '502': { code: 502, description: 'Bad Gateway' },
};

/** Telegram counts text length in UTF-16 code units. */
const length = (text: string) => text.length;

export function sandboxTelegramRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);

  answerOwnErrors(routes, BotApiError, (error, c) => {
    const body = {
      ok: false,
      error_code: error.errorCode,
      description: error.description,
      ...(error.retryAfter !== undefined && { parameters: { retry_after: error.retryAfter } }),
    };
    return c.json(body, error.errorCode as ContentfulStatusCode, error.retryAfter !== undefined ? { 'Retry-After': String(error.retryAfter) } : {});
  });

  async function params(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const input = await parseParams(c);
    if (containsNul(input)) throw new BotApiError(400, 'Bad Request: text must be encoded in UTF-8');
    return input;
  }

  async function parseParams(c: Context<SandboxEnv>): Promise<Record<string, unknown>> {
    const type = c.req.header('content-type') ?? '';
    if (type.includes('application/json')) {
      const body = (await c.req.json().catch(() => null)) as unknown;
      if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BotApiError(400, "Bad Request: can't parse JSON object");
      return body as Record<string, unknown>;
    }
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      const form = await c.req.parseBody();
      return Object.fromEntries(
        Object.entries(form).map(([key, value]) => {
          if (typeof value !== 'string') return [key, value];
          try {
            return [key, key === 'media' ? JSON.parse(value) : value];
          } catch {
            return [key, value];
          }
        }),
      );
    }
    return c.req.query();
  }

  /** The request's chat, which must be the token's own chat. */
  const chatIdOf = (value: unknown, ownChat: string): string => {
    let chatId: string;
    if (typeof value === 'number' && Number.isInteger(value)) chatId = String(value);
    else if (typeof value === 'string' && /^(-?\d{1,20}|@[A-Za-z][A-Za-z0-9_]{3,31})$/.test(value)) chatId = value;
    else throw new BotApiError(400, 'Bad Request: chat_id is empty');
    if (chatId !== ownChat) throw new BotApiError(400, 'Bad Request: chat not found');
    return chatId;
  };

  const throwFault = (text: string) => {
    const marker = faultMarker(text);
    if (!marker) return;
    const fault = FAULTS[marker];
    if (!fault) throw new BotApiError(400, `Bad Request: sandbox: telegram cannot produce fault ${marker} (see docs/sandbox-faults.md)`);
    throw new BotApiError(fault.code, fault.description, fault.retryAfter);
  };

  /** Stores messages under the next ids of the chat; retries when a concurrent send took the same id. */
  async function send(chatId: string, items: { text: string; media: SandboxMedia[]; message: Record<string, unknown> }[]): Promise<Record<string, unknown>[]> {
    const now = deps.clock();
    const date = Math.floor(now / 1000);
    const chat = { id: /^-?\d+$/.test(chatId) ? Number(chatId) : 0, type: 'channel', title: 'Sandbox channel', ...(chatId.startsWith('@') && { username: chatId.slice(1) }) };
    const groupId = items.length > 1 ? String(now * 1000 + Math.floor(Math.random() * 1000)) : null;
    const sent: Record<string, unknown>[] = [];
    for (const item of items) {
      for (let attempt = 0; ; attempt++) {
        const messageId = (await store().countForAccount('telegram', chatId)) + 1;
        const message = { message_id: messageId, date, chat, ...(groupId && { media_group_id: groupId }), ...item.message };
        const row: SandboxPost | null = await store().insertPost({
          platform: 'telegram',
          accountId: chatId,
          networkId: String(messageId),
          clientKey: groupId,
          text: item.text,
          media: item.media,
          record: message,
          status: 'published',
          error: null,
          createdAt: now,
          readyAt: now,
        });
        if (row) {
          sent.push(message);
          break;
        }
        if (attempt > 20) throw new BotApiError(500, 'Internal Server Error');
      }
    }
    return sent;
  }

  const photoSizes = (url: string) => [{ file_id: Buffer.from(url).toString('base64url').slice(0, 64), file_unique_id: 'sbx', width: 1280, height: 720 }];

  routes.all('/:bot/:method', async (c) => {
    const bot = /^bot(\S{1,4096})$/.exec(c.req.param('bot'))?.[1] ?? null;
    const checked = await checkSandboxToken(store(), bot, 'telegram', 'access', deps.clock());
    if (!checked.ok) throw new BotApiError(401, 'Unauthorized');
    const ownChat = checked.accountId;
    const method = c.req.param('method');
    const input = await params(c);
    switch (method) {
      case 'sendMessage': {
        const chatId = chatIdOf(input.chat_id, ownChat);
        const text = typeof input.text === 'string' ? input.text : '';
        if (text.trim() === '') throw new BotApiError(400, 'Bad Request: message text is empty');
        if (length(text) > TELEGRAM_TEXT_MAX) throw new BotApiError(400, 'Bad Request: message is too long');
        throwFault(text);
        const [message] = await send(chatId, [{ text, media: [], message: { text } }]);
        return c.json({ ok: true, result: message });
      }
      case 'sendPhoto':
      case 'sendVideo': {
        const chatId = chatIdOf(input.chat_id, ownChat);
        const field = method === 'sendPhoto' ? 'photo' : 'video';
        const url = input[field];
        if (typeof url !== 'string' || !/^https?:\/\//.test(url)) throw new BotApiError(400, `Bad Request: there is no ${field} in the request`);
        const caption = typeof input.caption === 'string' ? input.caption : '';
        if (length(caption) > TELEGRAM_CAPTION_MAX) throw new BotApiError(400, 'Bad Request: message caption is too long');
        throwFault(caption);
        const kind = field === 'photo' ? 'image' : 'video';
        const body = field === 'photo' ? { photo: photoSizes(url) } : { video: { file_id: 'sbx', duration: 10, width: 1280, height: 720 } };
        const [message] = await send(chatId, [{ text: caption, media: [{ url, kind }], message: { ...body, ...(caption && { caption }) } }]);
        return c.json({ ok: true, result: message });
      }
      case 'sendMediaGroup': {
        const chatId = chatIdOf(input.chat_id, ownChat);
        const media = input.media;
        if (!Array.isArray(media) || media.length < 2 || media.length > 10) throw new BotApiError(400, 'Bad Request: wrong number of media in the group: must be 2-10');
        const items = (media as Record<string, unknown>[]).map((entry) => {
          if (!entry || (entry.type !== 'photo' && entry.type !== 'video') || typeof entry.media !== 'string' || !/^https?:\/\//.test(entry.media)) {
            throw new BotApiError(400, 'Bad Request: invalid media in the group');
          }
          const caption = typeof entry.caption === 'string' ? entry.caption : '';
          if (length(caption) > TELEGRAM_CAPTION_MAX) throw new BotApiError(400, 'Bad Request: message caption is too long');
          return { entry, caption };
        });
        for (const { caption } of items) throwFault(caption);
        const sent = await send(
          chatId,
          items.map(({ entry, caption }) => {
            const url = entry.media as string;
            const kind = entry.type === 'photo' ? 'image' : 'video';
            const body = entry.type === 'photo' ? { photo: photoSizes(url) } : { video: { file_id: 'sbx', duration: 10 } };
            return { text: caption, media: [{ url, kind }], message: { ...body, ...(caption && { caption }) } };
          }),
        );
        return c.json({ ok: true, result: sent });
      }
      case 'deleteMessage': {
        const chatId = chatIdOf(input.chat_id, ownChat);
        const messageId = String(input.message_id ?? '');
        const post = /^\d+$/.test(messageId) ? await store().findByNetworkId('telegram', chatId, messageId) : null;
        if (!post) throw new BotApiError(400, 'Bad Request: message to delete not found');
        await store().markDeleted(post.id, deps.clock());
        return c.json({ ok: true, result: true });
      }
      default:
        throw new BotApiError(404, 'Not Found: method not found');
    }
  });

  return routes;
}
