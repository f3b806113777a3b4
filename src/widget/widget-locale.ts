/**
 * @module
 * The widget's language: its `locale` (attribute or `open()` option) when we speak it, else the browser's,
 * else English. Non-English texts load on demand so the script-tag build stays small.
 */
import { createCatalogueLoader } from '../i18n/catalogue-loader.js';
import { chooseLocale, directionOf, type Locale } from '../i18n/locales.js';
import { defaultTexts, type WidgetTexts } from './texts.js';

export const widgetCatalogues = createCatalogueLoader<WidgetTexts>(defaultTexts, {
  es: () => import('../i18n/widget/es.js'),
  fr: () => import('../i18n/widget/fr.js'),
  de: () => import('../i18n/widget/de.js'),
  'pt-BR': () => import('../i18n/widget/pt-BR.js'),
  ja: () => import('../i18n/widget/ja.js'),
  ar: () => import('../i18n/widget/ar.js'),
});

/** The locale the widget speaks for a requested one (null: the browser's languages decide). */
export function widgetLocale(requested: string | null | undefined): Locale {
  const browser = typeof navigator === 'undefined' ? [] : navigator.languages;
  return chooseLocale(requested, browser);
}

/**
 * Loads a locale's widget texts ahead of time, for pages that call `open()` themselves: `open()` runs inside the
 * click and cannot wait for them. `<social-link-button>` loads its own.
 */
export async function loadWidgetLocale(requested?: string): Promise<Locale> {
  const locale = widgetLocale(requested);
  await widgetCatalogues.load(locale);
  return locale;
}

export { directionOf };
