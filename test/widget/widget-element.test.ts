import { expect, fixture, html as fixtureHtml } from '@open-wc/testing';
import { html } from 'lit/html.js';
import '../../src/widget/define.js';
import { WidgetElement, type PropertyOptions } from '../../src/widget/widget-element.js';
import { SocialLinkButton } from '../../src/widget/social-link-button.js';
import { css } from '../../src/widget/static-css.js';

/** A test element counting its renders; `label` has an attribute, `flag` a Boolean one, `data` none. */
class CountingElement extends WidgetElement {
  static override styles = css`:host { display: block; color: rgb(1, 2, 3); }`;
  static override properties: Record<string, PropertyOptions> = {
    label: {},
    flag: { type: Boolean, attribute: 'the-flag' },
    data: { attribute: false },
  };
  label: string | null = 'default';
  flag = false;
  data: unknown = null;
  renders = 0;
  clicks = 0;
  /** How often firstUpdated() ran, and how many renders had happened then. */
  firstUpdates: number[] = [];

  protected override firstUpdated() {
    this.firstUpdates.push(this.renders);
  }

  override render() {
    this.renders++;
    return html`<button @click=${this.handleClick}>${this.label}</button><i>${this.flag ? 'on' : 'off'}</i>`;
  }

  private handleClick() {
    this.clicks++;
  }
}
CountingElement.define('test-counting-element');

const text = (el: Element, selector: string) => el.shadowRoot!.querySelector(selector)!.textContent;

describe('WidgetElement (the base class of the widget elements)', () => {
  it('renders on connect, and batches every change of one task into one render', async () => {
    const el = await fixture<CountingElement>(fixtureHtml`<test-counting-element></test-counting-element>`);
    expect(el.renders).to.equal(1);
    expect(text(el, 'button')).to.equal('default');
    el.label = 'one';
    el.label = 'two';
    el.flag = true;
    el.data = {};
    expect(text(el, 'button'), 'nothing renders synchronously').to.equal('default');
    expect(await el.updateComplete).to.equal(true);
    expect(el.renders).to.equal(2);
    expect(text(el, 'button')).to.equal('two');
    expect(text(el, 'i')).to.equal('on');
    el.label = 'two';
    await el.updateComplete;
    expect(el.renders, 'setting the same value renders nothing').to.equal(2);
  });

  it('attributes set their properties: text, Boolean presence, null when removed', async () => {
    const el = await fixture<CountingElement>(fixtureHtml`<test-counting-element label="from attr" the-flag></test-counting-element>`);
    expect(el.label).to.equal('from attr');
    expect(el.flag).to.equal(true);
    expect(text(el, 'i')).to.equal('on');
    el.removeAttribute('the-flag');
    el.removeAttribute('label');
    expect(el.flag).to.equal(false);
    expect(el.label).to.equal(null);
    el.setAttribute('data', 'ignored');
    expect(el.data, 'a property without attribute').to.equal(null);
  });

  it('keeps the real button attributes: keep-open, mode, url, locale', async () => {
    const el = await fixture<SocialLinkButton>(
      fixtureHtml`<social-link-button keep-open mode="popup" url="https://example.test/l" locale="de"></social-link-button>`,
    );
    expect([el.keepOpen, el.mode, el.url, el.locale]).to.deep.equal([true, 'popup', 'https://example.test/l', 'de']);
    el.removeAttribute('keep-open');
    expect(el.keepOpen).to.equal(false);
  });

  it('binds @event handlers to the element', async () => {
    const el = await fixture<CountingElement>(fixtureHtml`<test-counting-element></test-counting-element>`);
    el.shadowRoot!.querySelector('button')!.click();
    expect(el.clicks).to.equal(1);
  });

  it('renders only while connected, and resolves updateComplete once it has', async () => {
    const el = document.createElement('test-counting-element') as CountingElement;
    el.label = 'early';
    let done = false;
    void el.updateComplete.then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve));
    expect(el.renders).to.equal(0);
    expect(done).to.equal(false);
    document.body.append(el);
    await el.updateComplete;
    expect(done).to.equal(true);
    expect(text(el, 'button')).to.equal('early');
    el.label = 'later';
    await el.updateComplete;
    el.remove();
    document.body.append(el);
    await el.updateComplete;
    expect(el.firstUpdates, 'firstUpdated() once, after the first render').to.deep.equal([1]);
    el.remove();
  });

  it('keeps values an integrator set before the element was upgraded, over the defaults', async () => {
    class LateButton extends SocialLinkButton {}
    const el = document.createElement('test-late-button') as SocialLinkButton;
    el.texts = { button: 'Set early' };
    el.mode = 'popup';
    document.body.append(el);
    LateButton.define('test-late-button');
    await el.updateComplete;
    expect(el).to.be.instanceOf(LateButton);
    expect(el.mode).to.equal('popup');
    expect(text(el, 'slot')).to.equal('Set early');
    el.mode = 'direct';
    expect(el.mode, 'and the property is reactive afterwards').to.equal('direct');
    el.remove();
  });

  it('styles the shadow root with one adopted style sheet per element class', async () => {
    const first = await fixture<CountingElement>(fixtureHtml`<test-counting-element></test-counting-element>`);
    const second = await fixture<CountingElement>(fixtureHtml`<test-counting-element></test-counting-element>`);
    expect(first.shadowRoot!.adoptedStyleSheets).to.have.length(1);
    expect(first.shadowRoot!.adoptedStyleSheets[0]).to.equal(second.shadowRoot!.adoptedStyleSheets[0]);
    expect(getComputedStyle(first).color).to.equal('rgb(1, 2, 3)');
    expect(first.shadowRoot!.querySelector('style'), 'no <style> element, which a page CSP could block').to.equal(null);
  });
});
