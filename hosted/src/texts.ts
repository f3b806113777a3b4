/**
 * The hosted page's texts through the shared translation mechanism (src/i18n/): a `PageTexts` reads one locale's
 * catalogue (English for any key it lacks) and formats the countdown. The page holds the active one
 * (link-state.ts) and hands it to its screens; ./locale.ts chooses and loads the locale.
 */
import { en, type HostedTextKey } from '../../src/i18n/hosted/en.js';
import { createTranslator, type Catalogue, type Values } from '../../src/i18n/translate.js';

export type TextKey = HostedTextKey;

export interface PageTexts {
  readonly locale: string;
  t(key: TextKey, values?: Values): string;
  /** A countdown: `m:ss` under an hour (digits of the locale), else hours and minutes. */
  formatDuration(ms: number): string;
}

/**
 * The page's locales whose numbers are written with the digits 0-9 (CLDR's default numbering system `latn`): the
 * countdown's minutes and seconds (0-59, no grouping) need no Intl.NumberFormat there. The first NumberFormat of a
 * page loads ICU's number data, 10-40 ms in a fresh renderer, which would fall between the page's first two frames.
 * server/test/linking/hosted-page-countdown.test.ts compares with Intl for every locale and value.
 */
export const LATIN_DIGIT_LOCALES: ReadonlySet<string> = new Set(['en', 'de', 'es', 'fr', 'pt-BR', 'ja']);

/** Formats whole numbers 0-59 with at least `minimumDigits` digits, as Intl.NumberFormat of the locale would. */
function countdownDigits(locale: string): (value: number, minimumDigits: 1 | 2) => string {
  if (LATIN_DIGIT_LOCALES.has(locale)) return (value, minimumDigits) => String(value).padStart(minimumDigits, '0');
  const formats = new Map<number, Intl.NumberFormat>();
  return (value, minimumDigits) => {
    let format = formats.get(minimumDigits);
    if (!format) formats.set(minimumDigits, (format = new Intl.NumberFormat(locale, { minimumIntegerDigits: minimumDigits })));
    return format.format(value);
  };
}

export function createPageTexts(locale: string, dir: 'ltr' | 'rtl', catalogue: Catalogue<TextKey>): PageTexts {
  const translator = createTranslator(locale, dir, catalogue, en);
  const t = (key: TextKey, values: Values = {}) => translator.t(key, values);
  const digits = countdownDigits(locale);
  return {
    locale,
    t,
    formatDuration(ms) {
      const total = Math.max(0, Math.ceil(ms / 1000));
      const hours = Math.floor(total / 3600);
      const minutes = Math.floor((total % 3600) / 60);
      const seconds = total % 60;
      if (hours > 0) return t('hoursMinutes', { hours, minutes: digits(minutes, 2) });
      return `${digits(minutes, 1)}:${digits(seconds, 2)}`;
    },
  };
}

export const ENGLISH_TEXTS: PageTexts = createPageTexts('en', 'ltr', en);
