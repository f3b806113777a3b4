/**
 * The hosted page's language: the session's `locale` when it names one we speak, else the browser's first
 * language we speak, else English. Other locales than English load on demand; until the chosen one is loaded
 * the page keeps showing "Loading…", so it never flashes English first. `lang` and `dir` go on <html>.
 */
import { createCatalogueLoader } from '../../src/i18n/catalogue-loader.js';
import { en } from '../../src/i18n/hosted/en.js';
import { chooseLocale, directionOf, type Locale } from '../../src/i18n/locales.js';
import type { Catalogue } from '../../src/i18n/translate.js';
import { ENGLISH_TEXTS, createPageTexts, type PageTexts, type TextKey } from './texts.js';

export class PageLocale {
  texts: PageTexts = ENGLISH_TEXTS;
  private applied: Locale | null = null;
  /** The last session read's locale: a screen without the session (expired, revoked) keeps speaking it. */
  private sessionLocale: string | null = null;
  private readonly catalogues = createCatalogueLoader<Catalogue<TextKey>>(en, {
    es: () => import('../../src/i18n/hosted/es.js'),
    fr: () => import('../../src/i18n/hosted/fr.js'),
    de: () => import('../../src/i18n/hosted/de.js'),
    'pt-BR': () => import('../../src/i18n/hosted/pt-BR.js'),
    ja: () => import('../../src/i18n/hosted/ja.js'),
    ar: () => import('../../src/i18n/hosted/ar.js'),
  });

  /** `onLoaded` runs when a locale that was not loaded yet arrives (the page renders again). */
  constructor(private readonly onLoaded: () => void) {}

  /**
   * True when the page already speaks the locale for this session (or the browser, without one); otherwise starts
   * loading it, calls `onLoaded` once it is there, and answers false. `undefined`: no session view on this screen.
   */
  ready(fromView: string | null | undefined): boolean {
    if (fromView !== undefined) this.sessionLocale = fromView;
    const locale = chooseLocale(this.sessionLocale, navigator.languages);
    if (this.applied === locale) return true;
    const catalogue = this.catalogues.get(locale);
    if (catalogue) {
      this.apply(locale, catalogue);
      return true;
    }
    void this.catalogues.load(locale).then((loaded) => {
      this.apply(locale, loaded);
      this.onLoaded();
    });
    return false;
  }

  private apply(locale: Locale, catalogue: Catalogue<TextKey>): void {
    this.applied = locale;
    this.texts = createPageTexts(locale, directionOf(locale), catalogue);
    document.documentElement.lang = locale;
    document.documentElement.dir = directionOf(locale);
  }
}
