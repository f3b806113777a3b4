// The script-tag build's template minifier (scripts/minify-lit-templates.ts), in Node:
// `node --import tsx --test test/widget/minify-lit-templates.node-test.ts` (named so web-test-runner skips it).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { minifyCssText, minifyHtmlText, minifyLitTemplates } from '../../scripts/minify-lit-templates.js';

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
    minifyCssText(css, true, true),
    `:host{display:inline-flex;width:var(--w,min(480px,100vw - 2rem))}[part~='a  b']{content:"x  : y"}` +
      `@media (prefers-color-scheme:dark){dialog{color:rgb(0 0 0 / 0.5)}}`,
  );
});

test('css: a space next to an interpolation is kept, as it may separate two tokens', () => {
  assert.equal(minifyCssText(' solid ', false, false), ' solid ');
  assert.equal(minifyCssText('\n  a { b: ', true, false), 'a{b:');
});

test('html: indentation becomes one space, and goes at the ends of the template', () => {
  assert.equal(minifyHtmlText('\n  <a\n    href="x"\n  >', true, false), '<a href="x" >');
  assert.equal(minifyHtmlText('</a>\n', false, true), '</a>');
  assert.equal(minifyHtmlText('<b> text </b>', true, true), '<b> text </b>');
  assert.equal(minifyHtmlText(' ', false, false), ' ');
});

test('rewrites css`` and html`` of a module, nested ones too, and nothing else', () => {
  const source = [
    "const label = '×…';",
    'const styles = css`\n  :host {\n    display: block;\n  }\n`;',
    'const view = html`\n  <div part="x">\n    ${flag ? html`<b>\n  ${label}\n</b>` : nothing}\n  </div>\n`;',
    'const other = tag`\n  kept  \n`;',
    'const plain = `\n  kept  \n`;',
  ].join('\n');
  const out = minifyLitTemplates(source, 'module.ts');
  assert.equal(
    out,
    [
      "const label = '×…';",
      'const styles = css`:host{display:block}`;',
      'const view = html`<div part="x"> ${flag ? html`<b> ${label} </b>` : nothing} </div>`;',
      'const other = tag`\n  kept  \n`;',
      'const plain = `\n  kept  \n`;',
    ].join('\n'),
  );
});

test('leaves templates holding <pre> or <textarea> alone, and says when nothing changed', () => {
  const source = 'const view = html`<pre>\n  a\n</pre>`;';
  assert.equal(minifyLitTemplates(source, 'module.ts'), null);
  assert.equal(minifyLitTemplates('const a = 1;', 'module.ts'), null);
});

test("the widget's own style sheets come out without comments or line breaks", () => {
  for (const name of ['social-link-button.styles.ts', 'social-link-dialog.styles.ts']) {
    const path = new URL(`../../src/widget/${name}`, import.meta.url);
    const out = minifyLitTemplates(readFileSync(path, 'utf8'), name);
    const sheet = /css`([^`]*)`/.exec(out ?? '')?.[1] ?? '';
    assert.ok(sheet.length > 100, name);
    assert.doesNotMatch(sheet, /\/\*|\n/, name);
  }
});
