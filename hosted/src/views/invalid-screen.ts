/** The link is unknown or no longer valid (revoked, used up): why, and the way back. */
import { property } from 'lit/decorators.js';
import type { PageMode } from '../integrator-messenger.js';
import type { PageTexts } from '../texts.js';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { wayBackTemplate } from './way-back.js';
import { TAG } from './tag-names.js';

export const invalidScreenTemplate = (texts: PageTexts, mode: PageMode, redirect: string | null) =>
  noticeTemplate('invalid', texts.t('invalidTitle'), texts.t('invalidBody'), wayBackTemplate(texts, mode, redirect));

export class InvalidScreen extends LightElement {
  static readonly tagName = TAG.invalidScreen;
  @property({ attribute: false }) mode: PageMode = 'direct';
  @property({ attribute: false }) redirect: string | null = null;
  override render() {
    return invalidScreenTemplate(this.texts, this.mode, this.redirect);
  }
}
