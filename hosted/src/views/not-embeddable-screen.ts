/** Framed without the max-pack add-on (spec 5.3, 5.7): no linking UI in the frame (../embedding.ts tells the widget). */
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';

export class NotEmbeddableScreen extends LightElement {
  static readonly tagName = 'slk-not-embeddable-screen';
  override render() {
    const { t } = this.texts;
    return noticeTemplate('not-embeddable', t('embedTitle'), t('embedBody'));
  }
}
