/**
 * @module
 * `scheduleDate` (spec 2.1): only the form YYYY-MM-DDThh:mm:ssZ, in UTC, is accepted. No offsets, no fractions, no
 * date-only form, no leap seconds, and the date must exist (2026-02-30 is refused rather than rolled over). Whether
 * the time is in the future is the caller's decision: it has the clock.
 */

export type ScheduleDateResult = { ok: true; epochMs: number } | { ok: false; message: string };

const FORM = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const EXPECTED = 'scheduleDate must be an ISO 8601 UTC time of the form YYYY-MM-DDThh:mm:ssZ';

export function parseScheduleDate(value: unknown): ScheduleDateResult {
  if (typeof value !== 'string') return { ok: false, message: `${EXPECTED}; got ${value === null ? 'null' : typeof value}` };
  const match = FORM.exec(value);
  if (!match) return { ok: false, message: `${EXPECTED}; got ${JSON.stringify(value.slice(0, 64))}` };
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = match.slice(1).map(Number);
  if (year < 1970) return { ok: false, message: `scheduleDate year ${year} is before 1970` };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, message: `scheduleDate time ${value.slice(11, 19)} does not exist` };
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return { ok: false, message: `scheduleDate day ${value.slice(0, 10)} does not exist` };
  }
  return { ok: true, epochMs: date.getTime() };
}

/** The canonical form of a time, as responses echo `scheduleDate`. */
export function formatScheduleDate(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
