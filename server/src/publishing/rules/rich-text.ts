/**
 * @module
 * Renders the rich-text subset of spec 4.9 rule 8 for one network: `b`/`strong` bold, `em`/`i` italic, `samp`
 * monospace, `var` bold script, `sub`/`sup` sub- and superscript. Networks with `richText: 'unicode'` get styled
 * Unicode letters; reddit (`markdown`) gets its markdown; the others get the plain text without the tags.
 *
 * Only matched pairs of these tags are markup. Any other tag, and a known tag without its partner, stays in the text
 * as written: `<u>x</u>` and a lone `<b>` are shown, not dropped.
 */
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { type LetterStyle, styleChar, subscriptOf, superscriptOf } from './unicode-styles.js';

const RICH_TAGS = ['b', 'strong', 'em', 'i', 'samp', 'var', 'sub', 'sup'] as const;
type RichTag = (typeof RICH_TAGS)[number];
type Effect = 'bold' | 'italic' | 'monospace' | 'script' | 'sub' | 'sup';

const TAG_EFFECT: Record<RichTag, Effect> = {
  b: 'bold',
  strong: 'bold',
  em: 'italic',
  i: 'italic',
  samp: 'monospace',
  var: 'script',
  sub: 'sub',
  sup: 'sup',
};

const MARKDOWN: Record<Effect, { open: string; close: string }> = {
  bold: { open: '**', close: '**' },
  italic: { open: '*', close: '*' },
  monospace: { open: '`', close: '`' },
  script: { open: '*', close: '*' },
  sup: { open: '^(', close: ')' },
  // reddit markdown has no subscript.
  sub: { open: '', close: '' },
};

const TAG_PATTERN = /<(\/?)([a-zA-Z]+)\s*>/g;

type Token = { kind: 'text'; text: string } | { kind: 'open' | 'close'; effect: Effect };

export function renderRichText(text: string, platform: Network): string {
  const tokens = tokenize(text);
  switch (PUBLISHING_CAPABILITIES[platform].richText) {
    case 'unicode':
      return renderUnicode(tokens);
    case 'markdown':
      return renderMarkdown(tokens);
    case 'none':
      return tokens.map((token) => (token.kind === 'text' ? token.text : '')).join('');
  }
}

/** Text with the matched rich-text tags removed and nothing styled (for comparisons and plain networks). */
export function stripRichText(text: string): string {
  return tokenize(text)
    .map((token) => (token.kind === 'text' ? token.text : ''))
    .join('');
}

function isRichTag(name: string): name is RichTag {
  return (RICH_TAGS as readonly string[]).includes(name);
}

/** Splits into text and tag tokens; a rich tag without a matching partner becomes text again. */
function tokenize(text: string): Token[] {
  const raw: { start: number; end: number; closing: boolean; name: RichTag }[] = [];
  for (const match of text.matchAll(TAG_PATTERN)) {
    const name = (match[2] ?? '').toLowerCase();
    if (isRichTag(name)) raw.push({ start: match.index, end: match.index + match[0].length, closing: match[1] === '/', name });
  }
  // Pair them: a closing tag closes the nearest open tag of the same name; the rest are left as text.
  const paired = new Set<number>();
  const openByName = new Map<RichTag, number[]>();
  raw.forEach((tag, index) => {
    const open = openByName.get(tag.name) ?? [];
    openByName.set(tag.name, open);
    if (!tag.closing) {
      open.push(index);
      return;
    }
    const partner = open.pop();
    if (partner !== undefined) paired.add(partner).add(index);
  });
  const tokens: Token[] = [];
  let position = 0;
  raw.forEach((tag, index) => {
    if (!paired.has(index)) return;
    if (tag.start > position) tokens.push({ kind: 'text', text: text.slice(position, tag.start) });
    tokens.push({ kind: tag.closing ? 'close' : 'open', effect: TAG_EFFECT[tag.name] });
    position = tag.end;
  });
  if (position < text.length) tokens.push({ kind: 'text', text: text.slice(position) });
  return tokens;
}

function renderUnicode(tokens: Token[]): string {
  const active: Record<Effect, number> = { bold: 0, italic: 0, monospace: 0, script: 0, sub: 0, sup: 0 };
  let out = '';
  for (const token of tokens) {
    if (token.kind !== 'text') {
      active[token.effect] += token.kind === 'open' ? 1 : -1;
      continue;
    }
    for (const char of token.text) out += styleOne(char, active);
  }
  return out;
}

function styleOne(char: string, active: Record<Effect, number>): string {
  const shifted = active.sup > 0 ? superscriptOf(char) : active.sub > 0 ? subscriptOf(char) : null;
  if (shifted !== null) return shifted;
  const style = letterStyle(active);
  return style ? styleChar(char, style) : char;
}

function letterStyle(active: Record<Effect, number>): LetterStyle | null {
  if (active.monospace > 0) return 'monospace';
  if (active.script > 0) return 'script';
  if (active.bold > 0 && active.italic > 0) return 'boldItalic';
  if (active.bold > 0) return 'bold';
  if (active.italic > 0) return 'italic';
  return null;
}

function renderMarkdown(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if (token.kind === 'text') return token.text;
      const marks = MARKDOWN[token.effect];
      return token.kind === 'open' ? marks.open : marks.close;
    })
    .join('');
}
