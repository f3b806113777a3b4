import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatScheduleDate, parseScheduleDate } from '../../src/publishing/rules/schedule-date.js';

describe('parseScheduleDate', () => {
  it('accepts YYYY-MM-DDThh:mm:ssZ as UTC, whatever the process time zone', () => {
    assert.deepEqual(parseScheduleDate('2026-11-23T21:30:05Z'), { ok: true, epochMs: Date.UTC(2026, 10, 23, 21, 30, 5) });
    assert.deepEqual(parseScheduleDate('2028-02-29T00:00:00Z'), { ok: true, epochMs: Date.UTC(2028, 1, 29) });
    assert.deepEqual(parseScheduleDate('9999-12-31T23:59:59Z'), { ok: true, epochMs: Date.UTC(9999, 11, 31, 23, 59, 59) });
  });

  it('refuses every other form', () => {
    for (const value of [
      '2026-11-23T21:30:05.000Z',
      '2026-11-23T21:30:05+00:00',
      '2026-11-23T21:30:05',
      '2026-11-23 21:30:05Z',
      '2026-11-23',
      '2026-11-23t21:30:05z',
      ' 2026-11-23T21:30:05Z',
      '+02026-11-23T21:30:05Z',
      '1700000000',
      '',
    ]) {
      const result = parseScheduleDate(value);
      assert.equal(result.ok, false, value);
      if (!result.ok) assert.match(result.message, /YYYY-MM-DDThh:mm:ssZ/);
    }
  });

  it('refuses dates and times that do not exist instead of rolling them over', () => {
    for (const value of ['2026-02-29T00:00:00Z', '2026-02-30T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-04-31T00:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T10:60:00Z', '2026-12-31T23:59:60Z', '1969-12-31T23:59:59Z']) {
      assert.equal(parseScheduleDate(value).ok, false, value);
    }
  });

  it('refuses non-strings with a message naming what came', () => {
    for (const value of [null, undefined, 1_700_000_000_000, {}, ['2026-11-23T21:30:05Z'], true]) {
      const result = parseScheduleDate(value);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.message, /got (null|undefined|number|object|boolean)/);
    }
  });

  it('formats a time back to the same form', () => {
    const value = '2026-11-23T21:30:05Z';
    const parsed = parseScheduleDate(value);
    assert.ok(parsed.ok);
    assert.equal(formatScheduleDate(parsed.epochMs), value);
  });
});
