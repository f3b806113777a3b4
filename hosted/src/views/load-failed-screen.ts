/** The session could not be read at all (offline, server down): the next step is a reload. */
import { html } from 'lit';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';

export class LoadFailedScreen extends LightElement {
  static readonly tagName = 'slk-load-failed-screen';
  override render() {
    const { t } = this.texts;
    return noticeTemplate('failed', t('loadFailed'), t('loadFailedBody'), html`<button type="button" @click=${() => location.reload()}>${t('reload')}</button>`);
  }
}
