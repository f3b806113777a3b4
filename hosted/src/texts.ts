/**
 * The hosted page's texts through the shared translation mechanism (src/i18n/): `t(key, values)` reads the
 * active locale's catalogue (English until another is loaded, and for any key a catalogue lacks). The locale
 * is chosen and loaded by ./locale.ts.
 */
import { en, type HostedTextKey } from '../../src/i18n/hosted/en.js';
import { createTranslator, type Translator, type Values } from '../../src/i18n/translate.js';
import type { Catalogue } from '../../src/i18n/translate.js';

export type TextKey = HostedTextKey;

let translator: Translator<TextKey> = createTranslator('en', 'ltr', en, en);

export function useCatalogue(locale: string, dir: 'ltr' | 'rtl', catalogue: Catalogue<TextKey>): void {
  translator = createTranslator(locale, dir, catalogue, en);
}

export const activeLocale = (): string => translator.locale;

export function t(key: TextKey, values: Values = {}): string {
  return translator.t(key, values);
}

/** A countdown: `m:ss` under an hour (digits of the locale), else hours and minutes. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const number = new Intl.NumberFormat(translator.locale, { minimumIntegerDigits: 2 });
  if (hours > 0) return t('hoursMinutes', { hours, minutes: number.format(minutes) });
  return `${new Intl.NumberFormat(translator.locale).format(minutes)}:${number.format(seconds)}`;
}
