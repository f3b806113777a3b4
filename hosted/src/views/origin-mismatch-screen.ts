/** Opened by a widget on an origin the session does not name: nothing can be linked here, and the page says why. */
import type { PageTexts } from '../texts.js';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { TAG } from './tag-names.js';

export const originMismatchScreenTemplate = ({ t }: PageTexts) => noticeTemplate('origin-mismatch', t('mismatchTitle'), t('mismatchBody'));

export class OriginMismatchScreen extends LightElement {
  static readonly tagName = TAG.originMismatchScreen;
  override render() {
    return originMismatchScreenTemplate(this.texts);
  }
}
