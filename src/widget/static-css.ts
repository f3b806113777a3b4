/**
 * @module
 * The `css` tag of the widget's own style sheets. Lit's `css` accepts interpolations and checks each one at run time
 * (with its error texts); ours accepts none (the type has no room for them), so a sheet is just its literal text,
 * and the script-tag build carries about 150 B gzip less. `unsafeCSS` only means "not checked": the text is a
 * literal of our source, never data.
 */
import { unsafeCSS, type CSSResult } from 'lit';

export const css = (strings: TemplateStringsArray): CSSResult => unsafeCSS(strings[0] ?? '');
