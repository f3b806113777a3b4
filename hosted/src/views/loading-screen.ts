/** The first screen, until the session view (and its locale) is there. */
import { html } from 'lit';
import { LightElement } from './light-element.js';

export class LoadingScreen extends LightElement {
  static readonly tagName = 'slk-loading-screen';
  override render() {
    return html`<p class="status" role="status">${this.texts.t('loading')}</p>`;
  }
}
