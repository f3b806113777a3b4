/**
 * @module
 * Loads a locale's catalogue on demand (English is bundled as the fallback), for the widget and the hosted page
 * alike: `get` answers at once with what is loaded, `load` fetches the locale's module once.
 */
import type { Locale } from './locales.js';

export type CatalogueModules<C> = Record<Exclude<Locale, 'en'>, () => Promise<{ default: C }>>;

export interface CatalogueLoader<C> {
  /** The locale's catalogue when it is loaded (English always is), else undefined. */
  get(locale: Locale): C | undefined;
  /** The locale's catalogue, loading it first if needed; English when loading fails (offline, blocked). */
  load(locale: Locale): Promise<C>;
}

export function createCatalogueLoader<C>(english: C, modules: CatalogueModules<C>): CatalogueLoader<C> {
  const loaded = new Map<Locale, C>([['en', english]]);
  return {
    get: (locale) => loaded.get(locale),
    async load(locale) {
      const known = loaded.get(locale);
      if (known) return known;
      try {
        const catalogue = (await modules[locale as Exclude<Locale, 'en'>]()).default;
        loaded.set(locale, catalogue);
        return catalogue;
      } catch {
        return english;
      }
    },
  };
}
