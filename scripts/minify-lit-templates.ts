/**
 * @module
 * A Vite plugin for the script-tag build: strips the layout whitespace and comments inside Lit's css`` and html``
 * template literals of our own sources, which the JavaScript minifier must keep (they are string contents).
 * Only changes that cannot alter what renders are made, and every line break is kept (moved to the end of a style
 * sheet), so the lines of the source map stay true:
 * - css`` without interpolations: comments removed, whitespace runs collapsed to one space, then dropped next to
 *   `{ } ; , :` and before `)`; `0.5` written `.5`; quoted strings are left as they are, except the quotes of
 *   an attribute selector's plain value (`[part='button']` → `[part=button]`).
 * - html``: a whitespace run that contains line breaks (source indentation) becomes just those line breaks, which
 *   HTML reads as the same whitespace. Templates with <pre> or <textarea> are left alone.
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

/** Minifies the text of a css`` template that has no interpolations. */
export function minifyCssText(text: string): string {
  // Comments first (one may hold a quote), strings kept; then the odd indexes of the split are the strings.
  const withoutComments = text.replace(/('[^']*'|"[^"]*")|\/\*[\s\S]*?\*\//g, (_match, quoted?: string) => quoted ?? ' ');
  const sheet = withoutComments
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
  return sheet + lineBreaks(text);
}

/** Minifies one piece of an html`` template (the text between two interpolations, or all of it). */
export function minifyHtmlText(text: string): string {
  return text.replace(/\s*\n\s*/g, lineBreaks);
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
      for (const quasi of quasis) {
        const raw = quasi.value.raw;
        // The raw text follows the opening backtick or the `}` that closes the previous interpolation.
        const start = quasi.start + 1;
        if (code.slice(start, start + raw.length) !== raw) continue;
        const text = tag === 'css' ? minifyCssText(raw) : minifyHtmlText(raw);
        if (text !== raw) edits.push({ start, end: start + raw.length, text });
      }
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
