/**
 * The link expired while this page showed it: why, and the way back (the session's `redirect`, known from the
 * view this page held). A fresh load of an expired token shows the invalid screen instead: the service answers it
 * exactly like an unknown token (server/test/linking/hosted-page-identical.test.ts says why).
 */
import { property } from 'lit/decorators.js';
import type { PageMode } from '../integrator-messenger.js';
import { LightElement } from './light-element.js';
import { noticeTemplate } from './notice.js';
import { wayBackTemplate } from './way-back.js';
import { TAG } from './tag-names.js';

export class ExpiredScreen extends LightElement {
  static readonly tagName = TAG.expiredScreen;
  @property({ attribute: false }) mode: PageMode = 'direct';
  @property({ attribute: false }) redirect: string | null = null;
  override render() {
    const { t } = this.texts;
    return noticeTemplate('expired', t('expiredTitle'), t('expiredBody'), wayBackTemplate(this.texts, this.mode, this.redirect));
  }
}
