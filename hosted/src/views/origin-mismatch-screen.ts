/** Opened by a widget on an origin the session does not name: nothing can be linked here, and the page says why. */
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';

export class OriginMismatchScreen extends LightElement {
  static readonly tagName = 'slk-origin-mismatch-screen';
  override render() {
    const { t } = this.texts;
    return noticeTemplate('origin-mismatch', t('mismatchTitle'), t('mismatchBody'));
  }
}
