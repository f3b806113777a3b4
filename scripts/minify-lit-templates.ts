/**
 * @module
 * A Vite plugin for the script-tag build: strips the layout whitespace and comments inside Lit's css`` and html``
 * template literals of our own sources, which the JavaScript minifier must keep (they are string contents).
 * Only changes that cannot alter what renders are made:
 * - css``: comments removed, whitespace runs collapsed to one space, then dropped next to `{ } ; , :` and before
 *   `)`; quoted strings are left as they are.
 * - html``: a whitespace run that contains a line break (source indentation) becomes one space, and is dropped at
 *   the very start and end of the template. Templates with <pre> or <textarea> are left alone.
 */
import { parseSync, Visitor, type Plugin } from 'vite';

/** Minifies one piece of a css`` template; `first`/`last` say whether it starts or ends the template. */
export function minifyCssText(text: string, first: boolean, last: boolean): string {
  // Comments first (one may hold a quote), strings kept; then the odd indexes of the split are the strings.
  const withoutComments = text.replace(/('[^']*'|"[^"]*")|\/\*[\s\S]*?\*\//g, (_match, quoted?: string) => quoted ?? ' ');
  let out = withoutComments
    .split(/('[^']*'|"[^"]*")/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/ \)/g, ')')
            .replace(/;}/g, '}'),
    )
    .join('');
  // Inside a template, a space next to an interpolation may separate two tokens; at its ends it never does.
  if (first) out = out.replace(/^ /, '');
  if (last) out = out.replace(/ $/, '');
  return out;
}

/** Minifies one piece of an html`` template; `first`/`last` say whether it starts or ends the template. */
export function minifyHtmlText(text: string, first: boolean, last: boolean): string {
  let out = text.replace(/\s*\n\s*/g, ' ');
  if (first && /^\s*\n/.test(text)) out = out.replace(/^ /, '');
  if (last && /\n\s*$/.test(text)) out = out.replace(/ $/, '');
  return out;
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
      if (tag === 'html' && quasis.some((q) => /<(pre|textarea)\b/i.test(q.value.raw))) return;
      quasis.forEach((quasi, index) => {
        const raw = quasi.value.raw;
        // The raw text follows the opening backtick or the `}` that closes the previous interpolation.
        const start = quasi.start + 1;
        if (code.slice(start, start + raw.length) !== raw) return;
        const text = tag === 'css' ? minifyCssText(raw, index === 0, index === quasis.length - 1) : minifyHtmlText(raw, index === 0, index === quasis.length - 1);
        if (text !== raw) edits.push({ start, end: start + raw.length, text });
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
      return out === null ? null : { code: out, map: null };
    },
  };
}
