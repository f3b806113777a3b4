import { expect, fixture, html } from '@open-wc/testing';
import '../../src/widget/define.js';
import { LOCALES } from '../../src/i18n/locales.js';
import { chooseLocale, matchLocale } from '../../src/i18n/locales.js';
import { createTranslator } from '../../src/i18n/translate.js';
import { loadWidgetLocale } from '../../src/widget/widget-locale.js';
import { defaultTexts } from '../../src/widget/texts.js';
import type { SocialLinkButton } from '../../src/widget/social-link-button.js';
import type { SocialLinkDialog } from '../../src/widget/social-link-dialog.js';
import { open } from '../../src/widget/open.js';
import { hostedUrl, openDialog, openDialogs, until } from './helpers.js';

const slotText = (el: SocialLinkButton) => el.shadowRoot!.querySelector('slot')!.textContent;

describe('widget languages', () => {
  afterEach(() => {
    for (const dialog of openDialogs()) dialog.remove();
  });

  it('chooses the requested locale, else the browser’s first language we speak, else English', () => {
    expect(chooseLocale('ja', ['de-DE'])).to.equal('ja');
    expect(chooseLocale(null, ['zh-CN', 'pt-PT', 'en'])).to.equal('pt-BR');
    expect(chooseLocale('xx', ['fr-CA'])).to.equal('fr');
    expect(chooseLocale(undefined, ['zh'])).to.equal('en');
    expect(matchLocale('PT-br')).to.equal('pt-BR');
    expect(matchLocale('ar-EG')).to.equal('ar');
  });

  it('plural forms and digits come from Intl for the locale', () => {
    const forms = { zero: 'none', one: '{count} account', two: 'two accounts', few: '{count} few', many: '{count} many', other: '{count} accounts' };
    const english = createTranslator('en', 'ltr', { n: forms }, { n: forms });
    expect(english.t('n', { count: 0 })).to.equal('none');
    expect(english.t('n', { count: 1 })).to.equal('1 account');
    expect(english.t('n', { count: 1200 })).to.equal('1,200 accounts');
    const arabic = createTranslator('ar', 'rtl', { n: forms }, { n: forms });
    expect(arabic.t('n', { count: 2 })).to.equal('two accounts');
    expect(arabic.t('n', { count: 3 })).to.match(/ few$/);
    expect(arabic.t('n', { count: 11 })).to.match(/ many$/);
  });

  for (const locale of LOCALES) {
    it(`<social-link-button locale="${locale}"> speaks ${locale}, with lang and dir, and is accessible`, async () => {
      const el = await fixture<SocialLinkButton>(html`<social-link-button locale=${locale}></social-link-button>`);
      await until(() => locale === 'en' || slotText(el) !== defaultTexts.button);
      const slot = el.shadowRoot!.querySelector('slot')!;
      expect(slot.getAttribute('lang')).to.equal(locale);
      expect(slot.getAttribute('dir')).to.equal(locale === 'ar' ? 'rtl' : 'ltr');
      await expect(el).to.be.accessible();
    });
  }

  it('the integrator’s texts still win over the locale’s', async () => {
    const el = await fixture<SocialLinkButton>(html`<social-link-button locale="fr" .texts=${{ button: 'Lier' }}></social-link-button>`);
    await loadWidgetLocale('fr');
    await el.updateComplete;
    expect(slotText(el)).to.equal('Lier');
  });

  it('frame mode in Arabic: the dialog has lang and dir, its texts translated, and is accessible', async () => {
    await loadWidgetLocale('ar');
    const handle = open({ url: hostedUrl(['ready']), mode: 'frame', locale: 'ar' });
    const dialog: SocialLinkDialog = openDialog();
    await dialog.updateComplete;
    expect(dialog.lang).to.equal('ar');
    expect(dialog.dir).to.equal('rtl');
    const close = dialog.shadowRoot!.querySelector('[part="close-button"]')!;
    expect(close.getAttribute('aria-label')).to.equal('إغلاق');
    await expect(dialog.shadowRoot!.querySelector('dialog')).to.be.accessible();
    handle.close();
  });
});
