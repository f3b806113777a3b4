/**
 * @module
 * The one translation mechanism of the widget and the hosted page. A catalogue maps keys to templates:
 * `{name}` is replaced by a value; a key whose template is an object holds plural forms chosen by
 * `Intl.PluralRules` for the `count` value (`{one: '1 minute', other: '{count} minutes'}`). Numbers are
 * formatted with `Intl.NumberFormat` of the locale. Missing keys fall back to the English catalogue.
 */

/** Plural forms by `Intl.PluralRules` category; `other` is always required. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };
export type Template = string | PluralForms;
export type Catalogue<K extends string> = Record<K, Template>;

export type Values = Record<string, string | number>;

export interface Translator<K extends string> {
  readonly locale: string;
  readonly dir: 'ltr' | 'rtl';
  t(key: K, values?: Values): string;
}

export function createTranslator<K extends string>(
  locale: string,
  dir: 'ltr' | 'rtl',
  catalogue: Partial<Catalogue<K>>,
  fallback: Catalogue<K>,
): Translator<K> {
  const plurals = new Intl.PluralRules(locale);
  // Made on first use: the first NumberFormat of a page loads ICU's number data (10-40 ms in a fresh renderer).
  let numbers: Intl.NumberFormat | undefined;
  const show = (value: string | number) => (typeof value === 'number' ? (numbers ??= new Intl.NumberFormat(locale)).format(value) : value);
  return {
    locale,
    dir,
    t(key, values = {}) {
      const template = catalogue[key] ?? fallback[key];
      const text = typeof template === 'string' ? template : pickPlural(template, plurals, values.count);
      return text.replace(/\{(\w+)\}/g, (_, name: string) => (name in values ? show(values[name]!) : ''));
    },
  };
}

function pickPlural(forms: PluralForms, rules: Intl.PluralRules, count: string | number | undefined): string {
  const n = typeof count === 'number' ? count : Number(count ?? 0);
  if (n === 0 && forms.zero !== undefined) return forms.zero;
  return forms[rules.select(n)] ?? forms.other;
}
