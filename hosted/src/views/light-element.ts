/**
 * The base of the hosted page's elements: Lit, rendered into the light DOM so the page's one stylesheet
 * (hosted.css, allowed by its CSP as a file) styles every screen, and given the active texts.
 */
import { LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import { ENGLISH_TEXTS, type PageTexts } from '../texts.js';

export class LightElement extends LitElement {
  /** The active locale's texts (link-state.ts); a new object when the locale changes, which renders again. */
  @property({ attribute: false }) texts: PageTexts = ENGLISH_TEXTS;

  protected override createRenderRoot() {
    return this;
  }
}
