/**
 * @module
 * A Vite plugin for the script-tag build: strips the layout whitespace and comments inside Lit's css`` and html``
 * template literals of our own sources, which the JavaScript minifier must keep (they are string contents).
 * Only changes that cannot alter what renders are made. Every line break of a template moves out of its strings into
 * the code, where it is layout the JavaScript minifier drops: after the `${` that ends a piece (before the
 * interpolation's expression) or after the closing backtick. So each expression stays on its line, and the lines of
 * the source map stay true:
 * - css`` without interpolations: comments removed, whitespace runs collapsed to one space, then dropped next to
 *   `{ } ; , :` and before `)`; `0.5` written `.5`; quoted strings are left as they are, except the quotes of
 *   an attribute selector's plain value (`[part='button']` → `[part=button]`).
 * - html``: a whitespace run that contains line breaks (source indentation) becomes one space, which HTML reads as
 *   the same whitespace; plain attribute values lose their quotes (`part="button"` → `part=button`).
 *   Templates with <pre> or <textarea> are left alone.
 */
import { parseSync, Visitor, type Plugin } from 'vite';

const lineBreaks = (text: string): string => '\n'.repeat(text.split('\n').length - 1);

/**
 * A quoted value of an attribute selector, `[part='button']`, without its quotes when it is a plain identifier
 * (letters, digits, `-`, `_`, starting with a letter): CSS reads `[part=button]` the same.
 */
function unquoteAttributeValue(quoted: string, before: string, after: string): string {
  const isSelectorValue = /\[[\w-]+[~|^$*]?=$/.test(before) && after.startsWith(']');
  return isSelectorValue && /^(['"])[a-zA-Z][\w-]*\1$/.test(quoted) ? quoted.slice(1, -1) : quoted;
}

/** Minifies the text of a css`` template that has no interpolations (its line breaks are the caller's to keep). */
export function minifyCssText(text: string): string {
  // Comments first (one may hold a quote), strings kept; then the odd indexes of the split are the strings.
  const withoutComments = text.replace(/('[^']*'|"[^"]*")|\/\*[\s\S]*?\*\//g, (_match, quoted?: string) => quoted ?? ' ');
  return withoutComments
    .split(/('[^']*'|"[^"]*")/)
    .map((part, index, parts) =>
      index % 2 === 1
        ? unquoteAttributeValue(part, parts[index - 1]!, parts[index + 1]!)
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/ \)/g, ')')
            .replace(/;}/g, '}')
            .replace(/(^|[\s:,(/])0\.(\d)/g, '$1.$2'),
    )
    .join('')
    .trim();
}

/** Minifies one piece of an html`` template (the text between two interpolations, or all of it). */
export function minifyHtmlText(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/**
 * The pieces of one html`` template (the texts between its interpolations) with the quotes of plain attribute
 * values removed inside tags (`part="button"` → `part=button`, which HTML reads the same). A value keeps its quotes
 * when it holds anything but letters, digits, `-` and `_`, when `/` or an interpolation follows it, or when an
 * interpolation is inside it.
 */
export function unquoteHtmlAttributes(pieces: readonly string[]): string[] {
  // Where the scan is: in text, inside a tag, or inside a quoted value (its quote), across interpolations.
  let state: 'text' | 'tag' | '"' | "'" = 'text';
  return pieces.map((piece) => {
    let out = '';
    for (let index = 0; index < piece.length; index++) {
      const char = piece[index]!;
      if (state === 'text') {
        if (char === '<' && /[a-zA-Z]/.test(piece[index + 1] ?? '')) state = 'tag';
      } else if (state === 'tag') {
        if (char === '>') state = 'text';
        if (char === '"' || char === "'") {
          const end = piece.indexOf(char, index + 1);
          if (end === -1) {
            state = char;
          } else {
            const value = piece.slice(index + 1, end);
            const next = piece[end + 1];
            const plain = piece[index - 1] === '=' && /^[\w-]+$/.test(value) && next !== undefined && next !== '/';
            out += plain ? value : piece.slice(index, end + 1);
            index = end;
            continue;
          }
        }
      } else if (char === state) {
        state = 'tag';
      }
      out += char;
    }
    return out;
  });
}

/** Rewrites the css`` and html`` templates of one module; returns null when nothing changed. */
export function minifyLitTemplates(code: string, filename: string): string | null {
  const { program } = parseSync(filename, code);
  const edits: { start: number; end: number; text: string }[] = [];
  new Visitor({
    TaggedTemplateExpression(node) {
      const tag = node.tag.type === 'Identifier' ? node.tag.name : null;
      if (tag !== 'css' && tag !== 'html') return;
      const quasis = node.quasi.quasis;
      if (tag === 'css' && quasis.length > 1) return;
      if (tag === 'html' && quasis.some((q) => /<(pre|textarea)\b/i.test(q.value.raw))) return;
      // The raw text of each piece follows the opening backtick or the `}` that closes the previous interpolation.
      if (quasis.some((quasi) => code.slice(quasi.start + 1, quasi.start + 1 + quasi.value.raw.length) !== quasi.value.raw)) return;
      const raws = quasis.map((quasi) => quasi.value.raw);
      const texts = tag === 'css' ? raws.map(minifyCssText) : unquoteHtmlAttributes(raws.map(minifyHtmlText));
      quasis.forEach((quasi, index) => {
        const start = quasi.start + 1;
        const raw = raws[index]!;
        if (texts[index] === raw) return;
        // The `${` or backtick after the piece, then the line breaks the piece lost.
        const end = start + raw.length + (quasi.tail ? 1 : 2);
        const lost = lineBreaks(raw).length - lineBreaks(texts[index]!).length;
        edits.push({ start, end, text: texts[index]! + code.slice(start + raw.length, end) + '\n'.repeat(lost) });
      });
    },
  }).visit(program);
  if (edits.length === 0) return null;
  edits.sort((a, b) => b.start - a.start);
  let out = code;
  for (const { start, end, text } of edits) out = out.slice(0, start) + text + out.slice(end);
  return out;
}

/** The plugin: our TypeScript sources only (Lit's own files are already minified). */
export function minifyLitTemplatesPlugin(): Plugin {
  return {
    name: 'minify-lit-templates',
    enforce: 'pre',
    transform(code, id) {
      if (!/\.ts$/.test(id) || id.includes('/node_modules/')) return null;
      if (!/\b(css|html)`/.test(code)) return null;
      const out = minifyLitTemplates(code, id);
      // No map: every line keeps its number, so the earlier mappings still hold line by line.
      return out === null ? null : { code: out, map: null };
    },
  };
}
