/**
 * The hosted page's countdown writes its digits without Intl.NumberFormat in the locales listed as using 0-9
 * (hosted/src/texts.ts: the first NumberFormat of a page costs 10-40 ms between its first two frames). It must read
 * exactly as Intl would: every page locale, every minute and second, and hours. Can fail: a locale listed whose
 * numbers use other digits, or padding that differs from Intl's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LATIN_DIGIT_LOCALES, createPageTexts } from '../../../hosted/src/texts.js';
import { en } from '../../../src/i18n/hosted/en.js';
import { LOCALES, directionOf } from '../../../src/i18n/locales.js';

/** The countdown as it was written before: every number through Intl.NumberFormat of the locale. */
function withIntl(locale: string, ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const [hours, minutes, seconds] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 });
  if (hours > 0) return en.hoursMinutes.replace('{hours}', new Intl.NumberFormat(locale).format(hours)).replace('{minutes}', two.format(minutes));
  return `${new Intl.NumberFormat(locale).format(minutes)}:${two.format(seconds)}`;
}

describe('hosted page countdown digits', () => {
  it('lists only locales whose numbers Intl writes with 0-9', () => {
    for (const locale of LATIN_DIGIT_LOCALES) {
      assert.ok((LOCALES as readonly string[]).includes(locale), `${locale} is not a page locale`);
      assert.equal(new Intl.NumberFormat(locale).format(1234567890).replace(/\D/g, ''), '1234567890', locale);
    }
  });

  it('reads as Intl would, in every page locale, for every minute, second and some hours', () => {
    for (const locale of LOCALES) {
      // English texts for every locale: only the digits are compared (hoursMinutes' words are the catalogue's).
      const texts = createPageTexts(locale, directionOf(locale), en);
      for (let seconds = 0; seconds < 3600; seconds++) assert.equal(texts.formatDuration(seconds * 1000), withIntl(locale, seconds * 1000), `${locale} ${seconds}s`);
      for (const ms of [-5, 0, 1, 999, 59_001, 3_600_000, 3_660_000, 7_199_000, 86_400_000]) assert.equal(texts.formatDuration(ms), withIntl(locale, ms), `${locale} ${ms}ms`);
    }
  });
});
