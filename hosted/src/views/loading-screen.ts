/** The first screen, until the session view (and its locale) is there; its one heading says what is happening. */
import { html } from 'lit';
import { LightElement } from './light-element.js';
import { TAG } from './tag-names.js';

export class LoadingScreen extends LightElement {
  static readonly tagName = TAG.loadingScreen;
  override render() {
    return html`<div role="status"><h1 class="status">${this.texts.t('loading')}</h1></div>`;
  }
}
