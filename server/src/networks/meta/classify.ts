/**
 * @module
 * A Graph error object (graph.ts) → the spec's terms, for facebook, instagram and threads. Meta's codes:
 * - 190 (invalid or expired token), 102 (session), 10 / 200 with subcodes 458-467 (app removed, password changed,
 *   session expired) → relink;
 * - 4, 17, 32, 613 (app, user, page and custom rate limits) → 429, retry after Retry-After or a minute;
 *   instagram subcode 2207042 (the 50 posts per 24 h publishing limit) → 435 with Retry-After in `details`;
 * - 1, 2 and HTTP 5xx → transient, 500 with retry; no answer → 500 marked `mayHaveArrived` unless the request
 *   provably never left (uncertain-call.ts: a commit is then decided by looking);
 * - facebook 368 (blocked for a policy violation) → 249 (subcode 1390008, a temporary restriction of the page's
 *   posting → 476); both never retried and not fixed by relinking;
 * - instagram: 2207085 (account state) → 258, retried by the adapter for about 50 s first; 2207050 (account
 *   restricted or inactive) → 258 without retry; 2207001 / 2207003 / 2207032 (server could not fetch or ingest the
 *   media) → 440 with retry; 2207052 (the media URL could not be fetched: robots.txt, HTTP 403) → 138 naming it;
 *   other instagram errors → 138;
 * - all three: subcode 1404078 (the person publishing must confirm their identity with Meta, the Page
 *   Publishing Authorization) → 326, never retried; relinking does not help. Meta's content publishing guide says
 *   a request fails until a Page that requires PPA has completed it, without naming the subcode; the subcode is the
 *   one integrators' own error tables give for "page publishing authorization required";
 * - threads: 24 with subcode 4279009 (media not ready yet) → 522 with retry; other threads errors → 379;
 * - other facebook errors (100 invalid parameter…) → 101.
 */
import type { Network } from '@social-link-kit/protocol';
import type { PublishFailure } from '../publish-adapter.js';
import type { GraphAnswer, GraphError } from './graph.js';

type MetaNetwork = Extract<Network, 'facebook' | 'instagram' | 'threads'>;

export const IG_SUBCODE_DAILY_LIMIT = 2207042;
export const IG_SUBCODE_ACCOUNT_STATE = 2207085;
export const IG_SUBCODE_ACCOUNT_RESTRICTED = 2207050;
export const IG_SUBCODES_INGEST = [2207001, 2207003, 2207032] as const;
export const IG_SUBCODE_FETCH_BLOCKED = 2207052;
export const THREADS_SUBCODE_NOT_READY = 4279009;
export const FB_SUBCODE_TEMPORARY_RESTRICTION = 1390008;
export const META_SUBCODE_IDENTITY_VERIFICATION = 1404078;
const RELINK_SUBCODES = new Set([458, 459, 460, 463, 464, 467]);
const RATE_LIMIT_CODES = new Set([4, 17, 32, 613]);
const DAY_SECONDS = 86_400;

function fail(code: number, message: string, retryAvailable: boolean, error: GraphError, extra: Partial<PublishFailure> = {}): PublishFailure {
  return {
    kind: 'failed',
    code,
    message,
    retryAvailable,
    relink: false,
    details: { graphCode: error.code, ...(error.subcode !== null && { graphSubcode: error.subcode }), networkMessage: error.userMessage ?? error.message },
    ...extra,
  };
}

export function classifyGraphError(platform: MetaNetwork, answer: Extract<GraphAnswer, { ok: false }>): PublishFailure {
  const { error, status } = answer;
  const { code, subcode } = error;
  if (code === 190 || code === 102 || (subcode !== null && RELINK_SUBCODES.has(subcode))) {
    return fail(401, `${platform} no longer accepts the account's token; link the account again.`, false, error, { relink: true });
  }
  if (platform === 'instagram' && subcode === IG_SUBCODE_DAILY_LIMIT) {
    const retryAfterSeconds = answer.retryAfterSeconds ?? DAY_SECONDS;
    return fail(435, 'instagram allows 50 posts per rolling 24 hours for this account; try again later.', true, error, {
      retryAfterMs: retryAfterSeconds * 1000,
      details: { graphCode: code, graphSubcode: subcode, retryAfter: retryAfterSeconds },
    });
  }
  if (RATE_LIMIT_CODES.has(code)) {
    const retryAfterSeconds = answer.retryAfterSeconds ?? 60;
    return fail(429, `${platform} rate limit reached; try again later.`, true, error, { retryAfterMs: retryAfterSeconds * 1000 });
  }
  if (subcode === META_SUBCODE_IDENTITY_VERIFICATION) {
    return fail(326, `${platform} needs the account's owner to confirm their identity with Meta (Page Publishing Authorization) before it publishes; relinking does not help.`, false, error);
  }
  // No answer: the request may have been carried out (uncertain-call.ts), not a plain "try again".
  if (status === 0) return { ...fail(500, `${platform} could not be reached (${error.message}); try again.`, true, error), ...(answer.sent !== false && { mayHaveArrived: true }) };
  if (status >= 500 || code === 1 || code === 2) return fail(500, `${platform} had a temporary problem; try again.`, true, error);
  if (platform === 'facebook') {
    if (code === 368 && subcode === FB_SUBCODE_TEMPORARY_RESTRICTION) return fail(476, 'facebook restricted posting on this page for now.', false, error);
    if (code === 368) return fail(249, 'facebook blocked the post under its community standards.', false, error);
    return fail(101, `facebook refused the post: ${error.message}`, false, error);
  }
  if (platform === 'instagram') {
    if (subcode === IG_SUBCODE_ACCOUNT_STATE) return fail(258, 'instagram reported an account-state error; try again shortly.', true, error);
    if (subcode === IG_SUBCODE_ACCOUNT_RESTRICTED) return fail(258, 'instagram reports the account as restricted or inactive.', false, error);
    if (subcode !== null && (IG_SUBCODES_INGEST as readonly number[]).includes(subcode)) return fail(440, 'instagram could not ingest the media; try again.', true, error);
    if (subcode === IG_SUBCODE_FETCH_BLOCKED) {
      return fail(138, `instagram could not fetch the media (robots.txt or HTTP 403 at the media host): ${error.message}`, false, error, { mediaFetchBlocked: true });
    }
    return fail(138, `instagram refused the post: ${error.message}`, false, error);
  }
  if (code === 24 && subcode === THREADS_SUBCODE_NOT_READY) return fail(522, 'threads media was not ready after waiting; try again.', true, error);
  return fail(379, `threads refused the post: ${error.message}`, false, error);
}

/** An instagram container's `status` text ("Error: … 2207003 …") → the same classification as an error body. */
export function classifyContainerError(platform: MetaNetwork, statusText: string): PublishFailure {
  const subcode = Number(/\b(2207\d{3}|4279\d{3})\b/.exec(statusText)?.[1] ?? NaN);
  return classifyGraphError(platform, {
    ok: false,
    status: 400,
    error: { code: 9007, subcode: Number.isFinite(subcode) ? subcode : null, type: null, message: statusText.slice(0, 300) || 'The container failed.', userMessage: null },
    retryAfterSeconds: null,
  });
}
