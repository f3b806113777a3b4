/**
 * The hosted page's language: the session's `locale` when it names one we speak, else the browser's first
 * language we speak, else English. Other locales than English load on demand; until the chosen one is loaded
 * the page keeps showing "Loading…", so it never flashes English first. `lang` and `dir` go on <html>.
 */
import { createCatalogueLoader } from '../../src/i18n/catalogue-loader.js';
import { en } from '../../src/i18n/hosted/en.js';
import { chooseLocale, directionOf, type Locale } from '../../src/i18n/locales.js';
import { update } from './state.js';
import { activeLocale, useCatalogue, type TextKey } from './texts.js';
import type { Catalogue } from '../../src/i18n/translate.js';

const catalogues = createCatalogueLoader<Catalogue<TextKey>>(en, {
  es: () => import('../../src/i18n/hosted/es.js'),
  fr: () => import('../../src/i18n/hosted/fr.js'),
  de: () => import('../../src/i18n/hosted/de.js'),
  'pt-BR': () => import('../../src/i18n/hosted/pt-BR.js'),
  ja: () => import('../../src/i18n/hosted/ja.js'),
  ar: () => import('../../src/i18n/hosted/ar.js'),
});

let applied: Locale | null = null;
/** The last session read's locale: a screen without the session (expired, revoked) keeps speaking it. */
let sessionLocale: string | null = null;

/**
 * True when the page already speaks the locale for this session (or the browser, without one); otherwise starts
 * loading it, renders again once it is there, and answers false. `undefined`: no session view on this screen.
 */
export function localeReady(fromView: string | null | undefined): boolean {
  if (fromView !== undefined) sessionLocale = fromView;
  const locale = chooseLocale(sessionLocale, navigator.languages);
  if (applied === locale && activeLocale() === locale) return true;
  const catalogue = catalogues.get(locale);
  if (catalogue) {
    apply(locale, catalogue);
    return true;
  }
  void catalogues.load(locale).then((loaded) => {
    apply(locale, loaded);
    update();
  });
  return false;
}

function apply(locale: Locale, catalogue: Catalogue<TextKey>): void {
  applied = locale;
  useCatalogue(locale, directionOf(locale), catalogue);
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}
