/** Framed without the max-pack add-on (spec 5.3, 5.7): no linking UI in the frame (../embedding.ts tells the widget). */
import type { PageTexts } from '../texts.js';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { TAG } from './tag-names.js';

export const notEmbeddableScreenTemplate = ({ t }: PageTexts) => noticeTemplate('not-embeddable', t('embedTitle'), t('embedBody'));

export class NotEmbeddableScreen extends LightElement {
  static readonly tagName = TAG.notEmbeddableScreen;
  override render() {
    return notEmbeddableScreenTemplate(this.texts);
  }
}
