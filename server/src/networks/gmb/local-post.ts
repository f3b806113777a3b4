/**
 * @module
 * A Business Profile `LocalPost` from one platform's share of a post, and the checks of `gmbOptions`. The fields
 * are Google's own (v4 `accounts.locations.localPosts`), so an integrator who knows that API knows these:
 * - `topicType`: `STANDARD` (default), `EVENT` (needs `event`) or `OFFER` (needs `event` for its dates, may carry
 *   `offer`); `ALERT` posts are not offered.
 * - `callToAction`: `{actionType: BOOK|ORDER|SHOP|LEARN_MORE|SIGN_UP|CALL, url}` (`url` required except for CALL,
 *   which calls the business's phone number); not on offers.
 * - `event`: `{title (≤58), schedule: {startDate, endDate: {year, month, day}, startTime?, endTime?: {hours, minutes}}}`.
 * - `offer`: `{couponCode?, redeemOnlineUrl?, termsConditions?}`.
 * The text is the `summary` (≤1,500 characters); one photo as `media: [{mediaFormat: PHOTO, sourceUrl}]`, which
 * Google downloads itself.
 */
import type { PlatformPost, PublishFailure } from '../publish-adapter.js';

export const GMB_SUMMARY_MAX = 1_500;
export const GMB_EVENT_TITLE_MAX = 58;
const TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER'] as const;
const ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'] as const;
const OPTION_KEYS = ['topicType', 'callToAction', 'event', 'offer'];
const OFFER_KEYS = ['couponCode', 'redeemOnlineUrl', 'termsConditions'];

type GoogleDate = { year: number; month: number; day: number };
type TimeOfDay = { hours: number; minutes: number };
export interface LocalPost {
  languageCode: string;
  summary: string;
  topicType: (typeof TOPIC_TYPES)[number];
  media?: { mediaFormat: 'PHOTO'; sourceUrl: string }[];
  callToAction?: { actionType: string; url?: string };
  event?: { title: string; schedule: { startDate: GoogleDate; endDate: GoogleDate; startTime?: TimeOfDay; endTime?: TimeOfDay } };
  offer?: { couponCode?: string; redeemOnlineUrl?: string; termsConditions?: string };
}

const issue = (message: string, field?: string): PublishFailure => ({
  kind: 'failed',
  code: 101,
  message,
  retryAvailable: false,
  relink: false,
  details: { platform: 'gmb', ...(field && { field }) },
});
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isWebUrl = (value: unknown) => typeof value === 'string' && value.length <= 2048 && /^https?:\/\/[^\s]+$/i.test(value);
const int = (value: unknown, min: number, max: number) => Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

function dateIssue(value: unknown, field: string): PublishFailure | null {
  if (!isObject(value) || !int(value.year, 1970, 9999) || !int(value.month, 1, 12) || !int(value.day, 1, 31)) {
    return issue(`gmbOptions.${field} must be {year, month, day} integers.`, `gmbOptions.${field}`);
  }
  return null;
}

function timeIssue(value: unknown, field: string): PublishFailure | null {
  if (value === undefined) return null;
  if (!isObject(value) || !int(value.hours, 0, 23) || !int(value.minutes ?? 0, 0, 59)) return issue(`gmbOptions.${field} must be {hours 0-23, minutes 0-59}.`, `gmbOptions.${field}`);
  return null;
}

const dayNumber = (date: GoogleDate) => date.year * 10_000 + date.month * 100 + date.day;

function eventIssues(event: unknown): PublishFailure[] {
  if (!isObject(event)) return [issue('gmbOptions.event must be an object with title and schedule.', 'gmbOptions.event')];
  const issues: PublishFailure[] = [];
  if (typeof event.title !== 'string' || event.title.trim() === '' || [...event.title].length > GMB_EVENT_TITLE_MAX) {
    issues.push(issue(`gmbOptions.event.title must be text of 1 to ${GMB_EVENT_TITLE_MAX} characters.`, 'gmbOptions.event.title'));
  }
  const schedule = event.schedule;
  if (!isObject(schedule)) return [...issues, issue('gmbOptions.event.schedule must give startDate and endDate.', 'gmbOptions.event.schedule')];
  const found = [
    dateIssue(schedule.startDate, 'event.schedule.startDate'),
    dateIssue(schedule.endDate, 'event.schedule.endDate'),
    timeIssue(schedule.startTime, 'event.schedule.startTime'),
    timeIssue(schedule.endTime, 'event.schedule.endTime'),
  ].filter((entry): entry is PublishFailure => entry !== null);
  if (found.length === 0 && dayNumber(schedule.endDate as GoogleDate) < dayNumber(schedule.startDate as GoogleDate)) {
    found.push(issue('gmbOptions.event.schedule.endDate is before its startDate.', 'gmbOptions.event.schedule.endDate'));
  }
  const unknown = Object.keys(event).filter((key) => key !== 'title' && key !== 'schedule');
  if (unknown.length > 0) found.push(issue(`Unknown gmbOptions.event field(s): ${unknown.join(', ')}.`, 'gmbOptions.event'));
  return [...issues, ...found];
}

/** `gmbOptions` problems, each a 101 naming the field. */
export function gmbOptionIssues(options: Record<string, unknown>): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const unknown = Object.keys(options).filter((key) => !OPTION_KEYS.includes(key));
  if (unknown.length > 0) issues.push(issue(`Unknown gmbOptions field(s): ${unknown.join(', ')}.`, 'gmbOptions'));
  const topicType = topicTypeOf(options);
  if (topicType === null) issues.push(issue(`gmbOptions.topicType must be one of ${TOPIC_TYPES.join(', ')}.`, 'gmbOptions.topicType'));
  const cta = options.callToAction;
  if (cta !== undefined) {
    if (!isObject(cta) || !(ACTION_TYPES as readonly unknown[]).includes(cta.actionType)) {
      issues.push(issue(`gmbOptions.callToAction.actionType must be one of ${ACTION_TYPES.join(', ')}.`, 'gmbOptions.callToAction.actionType'));
    } else if (cta.actionType === 'CALL' ? cta.url !== undefined : !isWebUrl(cta.url)) {
      issues.push(issue(cta.actionType === 'CALL' ? 'A CALL call to action takes no url (it calls the business).' : 'gmbOptions.callToAction.url must be an http(s) URL.', 'gmbOptions.callToAction.url'));
    }
    if (topicType === 'OFFER') issues.push(issue('An offer takes no callToAction (use offer.redeemOnlineUrl).', 'gmbOptions.callToAction'));
  }
  if ((topicType === 'EVENT' || topicType === 'OFFER') && options.event === undefined) {
    issues.push(issue(`A gmb ${topicType} post needs gmbOptions.event (title and dates).`, 'gmbOptions.event'));
  }
  if (options.event !== undefined) issues.push(...eventIssues(options.event));
  if (options.offer !== undefined) {
    const offer = options.offer;
    if (topicType !== 'OFFER') issues.push(issue('gmbOptions.offer needs topicType OFFER.', 'gmbOptions.offer'));
    if (!isObject(offer)) issues.push(issue('gmbOptions.offer must be an object.', 'gmbOptions.offer'));
    else {
      const bad = Object.keys(offer).filter((key) => !OFFER_KEYS.includes(key) || typeof offer[key] !== 'string' || (offer[key] as string).length > 2048);
      if (bad.length > 0) issues.push(issue(`gmbOptions.offer takes couponCode, redeemOnlineUrl and termsConditions as text; check ${bad.join(', ')}.`, 'gmbOptions.offer'));
      if (offer.redeemOnlineUrl !== undefined && !isWebUrl(offer.redeemOnlineUrl)) issues.push(issue('gmbOptions.offer.redeemOnlineUrl must be an http(s) URL.', 'gmbOptions.offer.redeemOnlineUrl'));
    }
  }
  return issues;
}

/** The topic: given, or implied by `offer` / `event`; null when the given one is not offered. */
function topicTypeOf(options: Record<string, unknown>): LocalPost['topicType'] | null {
  if (options.topicType === undefined) return options.offer !== undefined ? 'OFFER' : options.event !== undefined ? 'EVENT' : 'STANDARD';
  return (TOPIC_TYPES as readonly unknown[]).includes(options.topicType) ? (options.topicType as LocalPost['topicType']) : null;
}

/** The request body of `localPosts.create`; call after `gmbOptionIssues` found nothing. */
export function localPostOf(post: PlatformPost, mediaUrls: string[]): LocalPost {
  const options = post.options;
  return {
    languageCode: 'en',
    summary: post.text,
    topicType: topicTypeOf(options) ?? 'STANDARD',
    ...(mediaUrls.length > 0 && { media: mediaUrls.map((sourceUrl) => ({ mediaFormat: 'PHOTO' as const, sourceUrl })) }),
    ...(isObject(options.callToAction) && { callToAction: options.callToAction as LocalPost['callToAction'] }),
    ...(isObject(options.event) && { event: options.event as LocalPost['event'] }),
    ...(isObject(options.offer) && { offer: options.offer as LocalPost['offer'] }),
  };
}
