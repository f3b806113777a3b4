/** The session could not be read at all (offline, server down): the next step is a reload. */
import { html } from 'lit';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { TAG } from './tag-names.js';

export class LoadFailedScreen extends LightElement {
  static readonly tagName = TAG.loadFailedScreen;
  override render() {
    const { t } = this.texts;
    return noticeTemplate('failed', t('loadFailed'), t('loadFailedBody'), html`<button type="button" @click=${() => location.reload()}>${t('reload')}</button>`);
  }
}
