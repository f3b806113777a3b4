/** The link is unknown or no longer valid (revoked, used up): why, and the way back. */
import { property } from 'lit/decorators.js';
import type { PageMode } from '../integrator-messenger.js';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { wayBackTemplate } from './way-back.js';

export class InvalidScreen extends LightElement {
  static readonly tagName = 'slk-invalid-screen';
  @property({ attribute: false }) mode: PageMode = 'direct';
  @property({ attribute: false }) redirect: string | null = null;
  override render() {
    const { t } = this.texts;
    return noticeTemplate('invalid', t('invalidTitle'), t('invalidBody'), wayBackTemplate(this.texts, this.mode, this.redirect));
  }
}
