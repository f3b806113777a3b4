// The script-tag build's template minifier (scripts/minify-lit-templates.ts), in Node:
// `node --import tsx --test test/widget/minify-lit-templates.node-test.ts` (named so web-test-runner skips it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { minifyCssText, minifyHtmlText, minifyLitTemplates, unquoteHtmlAttributes } from '../../scripts/minify-lit-templates.js';

test('css: comments and layout whitespace go, values and quoted strings stay', () => {
  const css = `
  :host {
    display: inline-flex;
    /* a comment, with the page's apostrophe */
    width: var(--w, min(480px, 100vw - 2rem));
  }
  [part~='a  b'] { content: "x  : y" ; }
  @media (prefers-color-scheme: dark) {
    dialog { color: rgb(0 0 0 / 0.5) }
  }
`;
  assert.equal(
    minifyCssText(css),
    `:host{display:inline-flex;width:var(--w,min(480px,100vw - 2rem))}[part~='a  b']{content:"x  : y"}` +
      `@media (prefers-color-scheme:dark){dialog{color:rgb(0 0 0 / .5)}}`,
  );
});

test('css: `0.5` becomes `.5`; a plain attribute-selector value loses its quotes, any other quoted text keeps them', () => {
  assert.equal(
    minifyCssText(`[part~='button'][aria-busy="true"] { opacity: 0.8; margin: 0.25rem 10.5px; }`),
    '[part~=button][aria-busy=true]{opacity:.8;margin:.25rem 10.5px}',
  );
  assert.equal(minifyCssText(`[part='a b'],[x='1a'],a::after { content: 'x' }`), `[part='a b'],[x='1a'],a::after{content:'x'}`);
  assert.equal(minifyCssText(`a { color: rgb(0 0 0 / 0.5); width: calc(100% - 0.5rem) }`), 'a{color:rgb(0 0 0 / .5);width:calc(100% - .5rem)}');
});

test('html: indentation and its line breaks become one space (HTML reads it as the same whitespace)', () => {
  assert.equal(minifyHtmlText('\n  <a\n    href="x"\n\n  >'), ' <a href="x" >');
  assert.equal(minifyHtmlText('<b> text </b>'), '<b> text </b>');
  assert.equal(minifyHtmlText(' '), ' ');
});

test('html: plain attribute values lose their quotes inside tags only, across interpolations', () => {
  assert.deepEqual(unquoteHtmlAttributes(['<a part="button" href=', ' title="two words" x-y=\'a_b-1\'>part="text"</a>']), [
    '<a part=button href=',
    ' title="two words" x-y=a_b-1>part="text"</a>',
  ]);
  // A quote left open by an interpolation, a value an interpolation follows, a `/` after a value, no `=` before it.
  assert.deepEqual(unquoteHtmlAttributes(['<b class="a ', '" id="x"', '><br id="y"/><i data-x "z">']), [
    '<b class="a ',
    '" id="x"',
    '><br id="y"/><i data-x "z">',
  ]);
  assert.deepEqual(unquoteHtmlAttributes(['1 < 2 and b="c" <p lang="en">']), ['1 < 2 and b="c" <p lang=en>']);
});

test('rewrites css`` and html`` of a module, nested ones too, and nothing else; line breaks move into the code', () => {
  const source = [
    "const label = '×…';",
    'const styles = css`\n  :host {\n    display: block;\n  }\n`;',
    'const view = html`\n  <div part="x">\n    ${flag ? html`<b>\n  ${label}\n</b>` : nothing}\n  </div>\n`;',
    'const mixed = css`\n  a { color: ${color}; }\n`;',
    'const other = tag`\n  kept  \n`;',
    'const plain = `\n  kept  \n`;',
  ].join('\n');
  const out = minifyLitTemplates(source, 'module.ts');
  assert.equal(
    out,
    [
      "const label = '×…';",
      'const styles = css`:host{display:block}`\n\n\n\n;',
      'const view = html` <div part=x> ${\n\nflag ? html`<b> ${\nlabel} </b>`\n : nothing} </div> `\n\n;',
      'const mixed = css`\n  a { color: ${color}; }\n`;',
      'const other = tag`\n  kept  \n`;',
      'const plain = `\n  kept  \n`;',
    ].join('\n'),
  );
  // Every line keeps its number, and each interpolation's expression stays on its line.
  assert.equal(out?.split('\n').length, source.split('\n').length);
  const lineOf = (text: string, what: string) => text.slice(0, text.indexOf(what)).split('\n').length;
  for (const expression of ['flag ?', 'label}', ': nothing']) assert.equal(lineOf(out!, expression), lineOf(source, expression), expression);
});

test('leaves templates holding <pre> or <textarea> alone, and says when nothing changed', () => {
  const source = 'const view = html`<pre>\n  a\n</pre>`;';
  assert.equal(minifyLitTemplates(source, 'module.ts'), null);
  assert.equal(minifyLitTemplates('const a = 1;', 'module.ts'), null);
});

test("the widget's own style sheets come out without comments, on one line", () => {
  for (const name of ['social-link-button.styles.ts', 'social-link-dialog.styles.ts']) {
    const path = new URL(`../../src/widget/${name}`, import.meta.url);
    const out = minifyLitTemplates(readFileSync(path, 'utf8'), name);
    const sheet = /css`([^`]*)`/.exec(out ?? '')?.[1]?.trimEnd() ?? '';
    assert.ok(sheet.length > 100, name);
    assert.doesNotMatch(sheet, /\/\*|\n/, name);
  }
});
