/**
 * @module
 * Graph errors of the calls made after a post is out (insights, comments, private replies) → the spec's codes.
 * Publishing's classification (classify.ts) covers the rest; these are the differences:
 * - analytics: on facebook, the rate-limit family (4 app, 17 user, 32 page, 613 custom, 80001 page business-use
 *   limit) is the page analytics throttle 444 (a 429, retry later, never relink);
 * - a permission missing (10 without subcode, 200-299: an account linked before the engagement scopes were asked
 *   for) → 401 with relink: linking again grants them;
 * - "not found": code 100 with subcode 33 (object does not exist, or not visible to this token) and code 803 (unknown
 *   alias) say the post is not the account's: 186 for analytics and comments, 490 for a reply to a comment;
 * - private replies (`POST /{page-or-ig-user-id}/messages {recipient: {comment_id}}`), codes 490-495:
 *   · 490 the comment id is not valid: 100 with subcode 33, or 100 naming `comment_id`;
 *   · 491 the comment cannot be answered any more: 10 with subcode 2018278 or 2534022 (outside the 7-day window,
 *     or already answered privately), 551 (the person is not available: deleted comment or blocked messages);
 *   · 492 permission missing: 200-299, 230 (pages_messaging), 10 without a window subcode; token errors are
 *     classify.ts's relink (401);
 *   · 493 the hourly messaging limit: 4, 17, 32, 613;
 *   · 494 the app or service is misconfigured or failing: 3 (capability), 1, 2 or HTTP 5xx;
 *   · 495 anything else about this one comment.
 * None of 490-495 is retried automatically (the automation records it as failed).
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishFailure } from '../publish-adapter.js';
import { classifyGraphError } from './classify.js';
import type { GraphAnswer } from './graph.js';

type MetaNetwork = Extract<Network, 'facebook' | 'instagram' | 'threads'>;
type GraphFailure = Extract<GraphAnswer, { ok: false }>;

const FACEBOOK_THROTTLE_CODES = new Set([4, 17, 32, 613, 80001]);
const MESSAGING_LIMIT_CODES = new Set([4, 17, 32, 613]);
const WINDOW_SUBCODES = new Set([2018278, 2534022]);
const SUBCODE_NOT_FOUND = 33;

/** The post (or comment) does not exist for this token. */
export function isNotFound(answer: GraphFailure): boolean {
  return (answer.error.code === 100 && answer.error.subcode === SUBCODE_NOT_FOUND) || answer.error.code === 803;
}

function detailsOf(answer: GraphFailure): Record<string, unknown> {
  const { error } = answer;
  return { graphCode: error.code, ...(error.subcode !== null && { graphSubcode: error.subcode }), networkMessage: error.userMessage ?? error.message };
}

function isMissingPermission(answer: GraphFailure): boolean {
  const { code, subcode } = answer.error;
  return (code === 10 && subcode === null) || (code >= 200 && code <= 299);
}

function missingPermission(platform: MetaNetwork, answer: GraphFailure, what: string): PublishFailure {
  return { kind: 'failed', code: 401, message: `The ${platform} account was linked without the permission to read ${what}; link it again.`, retryAvailable: false, relink: true, details: detailsOf(answer) };
}

/** An insights or account-analytics call that failed as a whole. */
export function classifyAnalyticsError(platform: MetaNetwork, answer: GraphFailure): PublishFailure {
  if (platform === 'facebook' && FACEBOOK_THROTTLE_CODES.has(answer.error.code)) {
    const retryAfterSeconds = answer.retryAfterSeconds ?? 60;
    return {
      kind: 'failed',
      code: 444,
      message: 'facebook is throttling this page’s analytics; try again later.',
      retryAvailable: true,
      relink: false,
      retryAfterMs: retryAfterSeconds * 1000,
      details: detailsOf(answer),
    };
  }
  if (isMissingPermission(answer)) return missingPermission(platform, answer, 'analytics');
  const classified = classifyGraphError(platform, answer);
  // Rate limits of instagram and threads stay 429; other refusals are not publishing's 138 / 379 / 101.
  if (classified.relink || classified.code === 429 || classified.code === 500) return classified;
  return { ...classified, code: 101, message: `${platform} refused the analytics request: ${answer.error.message}` };
}

/** A comments listing or reply that failed; `subject` says what a "not found" is about. */
export function classifyCommentError(platform: MetaNetwork, answer: GraphFailure, subject: 'post' | 'comment'): PublishFailure {
  if (isNotFound(answer)) {
    return subject === 'post'
      ? { kind: 'failed', code: 186, message: `No ${platform} post with this id was found for this account.`, retryAvailable: false, relink: false, details: detailsOf(answer) }
      : { kind: 'failed', code: 490, message: `No ${platform} comment with this id was found under the post.`, retryAvailable: false, relink: false, details: detailsOf(answer) };
  }
  if (isMissingPermission(answer)) return missingPermission(platform, answer, 'comments');
  const classified = classifyGraphError(platform, answer);
  if (classified.relink || classified.code === 429 || classified.code === 500) return classified;
  return { ...classified, code: 101, message: `${platform} refused the comments request: ${answer.error.message}` };
}

function privateReplyCode(answer: GraphFailure): number {
  const { code, subcode } = answer.error;
  if (code === 100 && (subcode === SUBCODE_NOT_FOUND || /comment_id/i.test(answer.error.message))) return 490;
  if ((code === 10 && subcode !== null && WINDOW_SUBCODES.has(subcode)) || code === 551) return 491;
  if (code === 10 || code === 230 || (code >= 200 && code <= 299)) return 492;
  if (MESSAGING_LIMIT_CODES.has(code)) return 493;
  if (code === 3 || code === 1 || code === 2 || answer.status === 0 || answer.status >= 500) return 494;
  return 495;
}

const PRIVATE_REPLY_MESSAGES: Record<number, string> = {
  490: 'The comment id is not valid for a private reply.',
  491: 'The comment can no longer be answered privately (older than 7 days, already answered, deleted, or the commenter blocks messages).',
  492: 'The account lacks the messaging permission; reconnect it.',
  493: 'The hourly private-reply limit was reached; the message was not sent.',
  494: 'The messaging setup of the app or account is not working.',
  495: 'The network refused a private reply to this comment.',
};

/** A refused private reply: a revoked token stays classify.ts's relink; the rest are 490-495, never retried. */
export function classifyPrivateReplyError(platform: MetaNetwork, answer: GraphFailure): PublishFailure {
  const classified = classifyGraphError(platform, answer);
  if (classified.relink) return { ...classified, retryAvailable: false };
  const code = privateReplyCode(answer);
  return { kind: 'failed', code, message: `${PRIVATE_REPLY_MESSAGES[code]} (${answer.error.message})`.slice(0, 500), retryAvailable: false, relink: false, noAutoRetry: true, details: detailsOf(answer) };
}
