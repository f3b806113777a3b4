/**
 * @module
 * The telegram publishing adapter: the Bot API (`ctx.baseUrl`: the sandbox Bot API on loopback, or
 * api.telegram.org) to the linked channel (`account.accountId` is the chat id), with the service's bot, or for a
 * sandbox account the bot token the sandbox issued for that chat (stored with the link as `{botToken}`).
 * Text alone: `sendMessage` (1-4,096 characters). One image or video: `sendPhoto` / `sendVideo` with the text as
 * caption (≤1,024). 2-10 media: `sendMediaGroup`, caption on the first item. Telegram pulls the media by URL.
 *
 * Double sends. Telegram has no way to look a sent message up, so nothing can tell afterwards whether an
 * interrupted send happened. The engine records "commit started" before `commit`; the send is one HTTP request,
 * never repeated by this adapter; an answer lost in transit (no answer, a gateway 502/503/504) is reported as
 * "outcome unknown" with `retryAvailable: false`; and after a crash between the send and its record, `reconcile`
 * says exactly that instead of guessing. The message is then sent at most once; the user, who can see the channel,
 * decides whether to retry. Only refusals Telegram gives before sending (429, 500, 400s) are retryable.
 */
import type { LinkedAccountRef, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { callBotApi } from './bot-api.js';
import { classifyTelegramError, outcomeUnknown } from './classify.js';
import { failure } from '../kit.js';

export const TELEGRAM_TEXT_MAX = 4096;
export const TELEGRAM_CAPTION_MAX = 1024;
export const TELEGRAM_GROUP_MAX = 10;

export interface TelegramAdapterOptions {
  /**
   * The bot that sends: for a sandbox account the bot token the sandbox issued for its chat when it was linked (in
   * its sealed tokens), otherwise the service's (TELEGRAM_BOT_TOKEN). Null when there is none.
   */
  botToken(account: LinkedAccountRef): Promise<string | null> | string | null;
}

interface TelegramPrepared extends PreparedState {
  method: 'sendMessage' | 'sendPhoto' | 'sendVideo' | 'sendMediaGroup';
  payload: Record<string, unknown>;
}

const VIDEO_URL = /\.(mp4|mov|m4v|webm)(\?|#|$)/i;

/** Telegram counts message length in UTF-16 code units. */
const telegramLength = (text: string) => text.length;

function validateTelegram(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const length = telegramLength(post.text);
  if (post.mediaUrls.length === 0) {
    if (post.text.trim() === '') issues.push(failure(101, 'telegram messages need text or media.'));
    if (length > TELEGRAM_TEXT_MAX) issues.push(failure(101, `telegram messages are at most ${TELEGRAM_TEXT_MAX} characters; this one has ${length}.`));
  } else {
    if (length > TELEGRAM_CAPTION_MAX) issues.push(failure(101, `telegram captions are at most ${TELEGRAM_CAPTION_MAX} characters; this one has ${length}.`));
    if (post.mediaUrls.length > TELEGRAM_GROUP_MAX) issues.push(failure(101, `telegram takes at most ${TELEGRAM_GROUP_MAX} media in one post.`));
  }
  return issues;
}

function isVideo(post: PlatformPost, url: string): boolean {
  return VIDEO_URL.test(url) || (post.isVideo && post.mediaUrls.length === 1);
}

function messageIds(result: unknown): number[] {
  const messages = Array.isArray(result) ? result : [result];
  return messages.map((message) => (message as { message_id?: unknown })?.message_id).filter((id): id is number => typeof id === 'number');
}

function postUrlOf(ctx: PublishContext, firstId: number): string {
  const chat = ctx.account.accountId;
  if (ctx.account.sandbox) return `${ctx.baseUrl.replace(/\/+$/, '')}/c/${encodeURIComponent(chat)}/${firstId}`;
  if (ctx.account.username) return `https://t.me/${ctx.account.username}/${firstId}`;
  return `https://t.me/c/${chat.replace(/^-100/, '')}/${firstId}`;
}

export function createTelegramPublishAdapter(options: TelegramAdapterOptions): PublishAdapter {
  const botTokenOr = async (account: LinkedAccountRef): Promise<string | PublishFailure> =>
    (await options.botToken(account)) ??
    (account.sandbox
      ? failure(503, 'This sandbox telegram channel has no bot token of its own (it was linked before the sandbox issued them); link the channel again.')
      : failure(503, 'Telegram is not configured on this service (no bot token).'));

  return {
    platform: 'telegram',

    validate: (post) => validateTelegram(post),

    async prepare(ctx) {
      const issues = validateTelegram(ctx.post);
      if (issues.length > 0) return issues[0]!;
      const chat_id = ctx.account.accountId;
      const { text, mediaUrls } = ctx.post;
      let prepared: TelegramPrepared;
      if (mediaUrls.length === 0) {
        prepared = { method: 'sendMessage', payload: { chat_id, text } };
      } else if (mediaUrls.length === 1) {
        const video = isVideo(ctx.post, mediaUrls[0]!);
        prepared = {
          method: video ? 'sendVideo' : 'sendPhoto',
          payload: { chat_id, [video ? 'video' : 'photo']: mediaUrls[0], ...(text && { caption: text }) },
        };
      } else {
        const media = mediaUrls.map((url, index) => ({ type: VIDEO_URL.test(url) ? 'video' : 'photo', media: url, ...(index === 0 && text && { caption: text }) }));
        prepared = { method: 'sendMediaGroup', payload: { chat_id, media } };
      }
      return prepared;
    },

    async commit(ctx, preparedState) {
      const prepared = preparedState as TelegramPrepared;
      const token = await botTokenOr(ctx.account);
      if (typeof token !== 'string') return token;
      const answer = await callBotApi(ctx, token, prepared.method, prepared.payload);
      if (!answer.ok) return classifyTelegramError(answer);
      const ids = messageIds(answer.result);
      // Sent, but the answer is unreadable: report it sent-but-unknown rather than as a failure to retry.
      if (ids.length === 0) return outcomeUnknown('unreadable answer');
      return { kind: 'done', id: ids.join(','), postUrl: postUrlOf(ctx, ids[0]!) };
    },

    async confirm(_ctx, state) {
      // A send is confirmed by its own answer; there is nothing to poll.
      const id = typeof state.id === 'string' ? state.id : null;
      const postUrl = typeof state.postUrl === 'string' ? state.postUrl : null;
      return id && postUrl ? { kind: 'done', id, postUrl } : failure(101, 'Nothing to confirm on telegram.');
    },

    async reconcile() {
      return {
        ...outcomeUnknown('the service stopped while sending'),
        message:
          'The service stopped while sending this telegram message, and Telegram offers no way to look a sent message up. ' +
          'It was not sent again, so it is on the channel at most once. Check the channel, then retry the post if it is missing.',
      };
    },

    async remove(ctx, networkPostId) {
      const token = await botTokenOr(ctx.account);
      if (typeof token !== 'string') return false;
      let removed = true;
      for (const id of networkPostId.split(',')) {
        const answer = await callBotApi(ctx, token, 'deleteMessage', { chat_id: ctx.account.accountId, message_id: Number(id) });
        // Already gone counts as deleted.
        if (!answer.ok && !/message to delete not found/i.test(answer.description)) removed = false;
      }
      return removed;
    },
  };
}

export const telegramPublishAdapter: PublishAdapter = createTelegramPublishAdapter({
  botToken: async (account) => {
    if (!account.sandbox) return process.env.TELEGRAM_BOT_TOKEN ?? null;
    const { botToken } = await account.tokens();
    return typeof botToken === 'string' && botToken !== '' ? botToken : null;
  },
});
