/**
 * @module
 * Unicode "styled" letters: the Mathematical Alphanumeric Symbols block (sans-serif bold, italic and bold italic,
 * monospace, bold script) and the superscript/subscript forms. Tables are code point offsets from the Unicode
 * standard; the sans-serif and script-bold alphabets used here have no holes, unlike serif italic.
 */

export type LetterStyle = 'bold' | 'italic' | 'boldItalic' | 'monospace' | 'script';

/** First code point of A, a and 0 in each style (`null`: the style has no digits, they stay as they are). */
const STYLE_BASES: Record<LetterStyle, { upper: number; lower: number; digit: number | null }> = {
  bold: { upper: 0x1d5d4, lower: 0x1d5ee, digit: 0x1d7ec },
  italic: { upper: 0x1d608, lower: 0x1d622, digit: null },
  // Bold italic digits do not exist; bold ones read best.
  boldItalic: { upper: 0x1d63c, lower: 0x1d656, digit: 0x1d7ec },
  monospace: { upper: 0x1d670, lower: 0x1d68a, digit: 0x1d7f6 },
  script: { upper: 0x1d4d0, lower: 0x1d4ea, digit: null },
};

export function styleChar(char: string, style: LetterStyle): string {
  const code = char.codePointAt(0) ?? 0;
  const base = STYLE_BASES[style];
  if (code >= 0x41 && code <= 0x5a) return String.fromCodePoint(base.upper + code - 0x41);
  if (code >= 0x61 && code <= 0x7a) return String.fromCodePoint(base.lower + code - 0x61);
  if (code >= 0x30 && code <= 0x39 && base.digit !== null) return String.fromCodePoint(base.digit + code - 0x30);
  return char;
}

const SUPERSCRIPTS: Record<string, string> = {
  '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹',
  '+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾',
  a: 'ᵃ', b: 'ᵇ', c: 'ᶜ', d: 'ᵈ', e: 'ᵉ', f: 'ᶠ', g: 'ᵍ', h: 'ʰ', i: 'ⁱ', j: 'ʲ', k: 'ᵏ', l: 'ˡ', m: 'ᵐ',
  n: 'ⁿ', o: 'ᵒ', p: 'ᵖ', r: 'ʳ', s: 'ˢ', t: 'ᵗ', u: 'ᵘ', v: 'ᵛ', w: 'ʷ', x: 'ˣ', y: 'ʸ', z: 'ᶻ',
};

const SUBSCRIPTS: Record<string, string> = {
  '0': '₀', '1': '₁', '2': '₂', '3': '₃', '4': '₄', '5': '₅', '6': '₆', '7': '₇', '8': '₈', '9': '₉',
  '+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎',
  a: 'ₐ', e: 'ₑ', h: 'ₕ', i: 'ᵢ', j: 'ⱼ', k: 'ₖ', l: 'ₗ', m: 'ₘ', n: 'ₙ', o: 'ₒ', p: 'ₚ', r: 'ᵣ', s: 'ₛ',
  t: 'ₜ', u: 'ᵤ', v: 'ᵥ', x: 'ₓ',
};

/** The superscript form of `char`, or `null` when Unicode has none. */
export function superscriptOf(char: string): string | null {
  return SUPERSCRIPTS[char] ?? null;
}

/** The subscript form of `char`, or `null` when Unicode has none. */
export function subscriptOf(char: string): string | null {
  return SUBSCRIPTS[char] ?? null;
}
