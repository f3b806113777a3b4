/**
 * @module
 * `POST /api/validate/moderation` `{post, mediaUrls?}` → `{status, flagged, text: {flagged, matches, censored},
 * mediaUrls: [{url, flagged, matches}]}`: moderation before posting, done locally (text-moderation.ts).
 * 438 (400) for input it cannot take (no text and no media, text over 10,000 characters, control characters, a
 * media URL that is not http(s) or too long, more than 10 URLs); 331 (500, retryable) when the moderation itself
 * fails.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { defaultMatcher, moderateText, type Matcher } from './text-moderation.js';
import { describe, jsonAnswer } from '../core/openapi/describe.js';
import { z } from 'zod';

const ACTION = 'moderation';
const MAX_TEXT = 10_000;
const MAX_URLS = 10;
const MAX_URL_LENGTH = 2048;
// Control characters other than tab, line feed and carriage return (text that is not text).
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function rejected(message: string, details?: unknown): ApiError {
  return new ApiError(400, 438, message, { action: ACTION, details });
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The URL's path as words; a malformed escape stays as written. */
function readablePath(url: string): string {
  const path = new URL(url).pathname;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function moderationRoutes(deps: Pick<AppDeps, 'config' | 'log'>, matcher: Matcher = defaultMatcher): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/', describe({ summary: 'Moderate a text and media URLs before posting', tag: 'Moderation', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'body {post, mediaUrls?} and answer fields', request: z.strictObject({ post: z.string().max(MAX_TEXT).optional(), mediaUrls: z.array(z.url()).max(MAX_URLS).optional() }), response: jsonAnswer('`{status, flagged, text: {flagged, matches, censored}, mediaUrls: [{url, flagged, matches}]}`'), errors: [331, 438] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const unknown = Object.keys(body).filter((key) => key !== 'post' && key !== 'mediaUrls');
    if (unknown.length > 0) throw rejected(`Unknown field(s): ${unknown.join(', ').slice(0, 200)}.`, { unknownKeys: unknown.slice(0, 20) });
    const text = body.post ?? '';
    const mediaUrls = body.mediaUrls ?? [];
    if (typeof text !== 'string') throw rejected('`post` must be a string.');
    if (text.length > MAX_TEXT) throw rejected(`\`post\` is longer than ${MAX_TEXT} characters.`, { max: MAX_TEXT });
    if (CONTROL.test(text)) throw rejected('`post` holds control characters.');
    if (!Array.isArray(mediaUrls) || mediaUrls.length > MAX_URLS) throw rejected(`\`mediaUrls\` must be an array of at most ${MAX_URLS} URLs.`);
    if (mediaUrls.some((url) => typeof url !== 'string' || url.length > MAX_URL_LENGTH || !isHttpUrl(url))) throw rejected('Each media URL must be an http(s) URL.');
    if (text.trim() === '' && mediaUrls.length === 0) throw rejected('Nothing to moderate: send `post`, `mediaUrls` or both.');

    let answer;
    try {
      const textResult = moderateText(text, matcher);
      const media = (mediaUrls as string[]).map((url) => {
        // The address is checked as words (path and file name); the image itself is not looked at.
        const words = readablePath(url).replace(/[/_\-.+]+/g, ' ');
        const result = moderateText(words, matcher);
        return { url, flagged: result.flagged, matches: result.matches.map((match) => match.term) };
      });
      answer = { flagged: textResult.flagged || media.some((item) => item.flagged), text: textResult, mediaUrls: media };
    } catch (error) {
      deps.log(`moderation failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ApiError(500, 331, 'Moderation could not process this input; try again.', { action: ACTION, retryAvailable: true });
    }
    return c.json({ status: 'success', ...answer });
  });

  return routes;
}
