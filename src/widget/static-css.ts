/**
 * @module
 * The `css` tag of the widget's own style sheets: a sheet is just its literal text (no interpolations: the type has
 * no room for them), adopted by `WidgetElement` as a constructable style sheet. The tag's name is what the
 * script-tag build's template minifier looks for (scripts/minify-lit-templates.ts).
 */
export const css = (strings: TemplateStringsArray): string => strings[0] ?? '';
