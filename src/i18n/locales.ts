/**
 * @module
 * The locales the widget and the hosted page speak, and how one is chosen: the link session's `locale` when it
 * names one we have, else the browser's first language we have, else English. No zod and no DOM or Node APIs:
 * the server validates `locale` with the same list.
 */

export const LOCALES = ['en', 'es', 'fr', 'de', 'pt-BR', 'ja', 'ar'] as const;
export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Written right to left. */
const RTL_LOCALES: readonly Locale[] = ['ar'];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (RTL_LOCALES.includes(locale) ? 'rtl' : 'ltr');

/**
 * The best supported locale for a BCP 47 tag: the exact tag (case-insensitive), else its language alone
 * (`pt-PT` → `pt-BR`, `fr-CA` → `fr`, `ar-EG` → `ar`), else null.
 */
export function matchLocale(tag: string): Locale | null {
  const wanted = tag.trim().toLowerCase();
  const exact = LOCALES.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split('-')[0];
  return LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language) ?? null;
}

/** The session's locale when it gave one, else the first of the browser's languages we speak, else English. */
export function chooseLocale(sessionLocale: string | null | undefined, browserLanguages: readonly string[]): Locale {
  for (const tag of [sessionLocale, ...browserLanguages]) {
    const match = tag ? matchLocale(tag) : null;
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}
