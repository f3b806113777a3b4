/**
 * @module
 * A platform's final text from a post request, in this order:
 * 1. the text: `post` as a string, or the platform's key of the object form, else its `default`, else empty;
 * 2. auto hashtags, on the raw text (so markup tag names and styled letters never become hashtags);
 * 3. rich text for the network (Unicode styling, reddit markdown, or plain);
 * 4. line breaks for the network (U+2063 + LF, or spaces).
 * Then `planThread` checks the result against the network's limit: one part, a thread, or an issue.
 */
import type { Network } from '@social-link-kit/protocol';
import { MAX_THREAD_PARTS, PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { type AutoHashtagOptions, addHashtags } from './auto-hashtag.js';
import { applyLineBreaks } from './line-breaks.js';
import type { RuleIssue } from './network-options.js';
import { renderRichText } from './rich-text.js';
import { measureText } from '../../networks/text/text-length.js';
import { splitIntoThread } from '../../networks/text/thread-split.js';

/** The request fields the text depends on: `PostRequest` fits it. */
export interface PlatformTextRequest {
  post: string | { [platform: string]: string | undefined };
  autoHashtag?: boolean | AutoHashtagOptions;
}

/** Thread parts are kept a little under twitter's 280 so a part never lands exactly on the limit. */
export const THREAD_PART_MAX = 275;

export function rawPlatformText(request: PlatformTextRequest, platform: Network): string {
  const { post } = request;
  if (typeof post === 'string') return post;
  return post[platform] ?? post.default ?? '';
}

export function resolvePlatformText(request: PlatformTextRequest, platform: Network): string {
  let text = rawPlatformText(request, platform);
  const hashtags = request.autoHashtag;
  if (hashtags) text = addHashtags(text, hashtags === true ? {} : hashtags);
  return applyLineBreaks(renderRichText(text, platform), platform);
}

/**
 * The parts to publish: one when the text fits; on a network with threads, parts of at most THREAD_PART_MAX (or the
 * network's max when smaller), 275 when that needs more than 30; elsewhere, 101 when the text is too long, and 101
 * for an empty text where the network needs one.
 */
export function planThread(text: string, platform: Network): { ok: true; parts: string[] } | { ok: false; issue: RuleIssue } {
  const capabilities = PUBLISHING_CAPABILITIES[platform];
  const { max, unit } = capabilities.text;
  if (text.trim() === '' && !capabilities.emptyTextAllowed) {
    return { ok: false, issue: { code: 101, field: 'post', message: `${platform} needs a text; an empty post is media-only` } };
  }
  const length = measureText(text, unit);
  if (length <= max) return { ok: true, parts: [text] };
  if (!capabilities.threads) {
    return {
      ok: false,
      issue: { code: 101, field: 'post', message: `The text is ${length} ${unit} long; ${platform} takes at most ${max}`, details: { length, max, unit } },
    };
  }
  const partMax = Math.min(max, THREAD_PART_MAX);
  // No part holds more than partMax, so a longer text cannot fit in 30 parts: refuse it without splitting it.
  const parts = length > partMax * MAX_THREAD_PARTS ? null : splitIntoThread(text, partMax, unit);
  if (parts === null || parts.length > MAX_THREAD_PARTS) {
    return {
      ok: false,
      issue: { code: 275, field: 'post', message: `The text needs more than ${MAX_THREAD_PARTS} thread posts of at most ${partMax} ${unit}`, details: { length, partMax } },
    };
  }
  return { ok: true, parts };
}
