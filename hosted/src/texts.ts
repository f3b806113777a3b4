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

export function createPageTexts(locale: string, dir: 'ltr' | 'rtl', catalogue: Catalogue<TextKey>): PageTexts {
  const translator = createTranslator(locale, dir, catalogue, en);
  const t = (key: TextKey, values: Values = {}) => translator.t(key, values);
  return {
    locale,
    t,
    formatDuration(ms) {
      const total = Math.max(0, Math.ceil(ms / 1000));
      const hours = Math.floor(total / 3600);
      const minutes = Math.floor((total % 3600) / 60);
      const seconds = total % 60;
      const twoDigits = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 });
      if (hours > 0) return t('hoursMinutes', { hours, minutes: twoDigits.format(minutes) });
      return `${new Intl.NumberFormat(locale).format(minutes)}:${twoDigits.format(seconds)}`;
    },
  };
}

export const ENGLISH_TEXTS: PageTexts = createPageTexts('en', 'ltr', en);
