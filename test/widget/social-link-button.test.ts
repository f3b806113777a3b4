import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import '../../src/widget/define.js';
import type { SocialLinkButton } from '../../src/widget/social-link-button.js';
import type { SocialLinkSuccessEvent } from '../../src/widget/events/social-link-success.js';
import { frameOf, hostedUrl, openDialog, openDialogs, recordPopups, SESSION_ID, until } from './helpers.js';

function innerButton(el: SocialLinkButton): HTMLElement {
  return el.shadowRoot!.querySelector<HTMLElement>('[part="button"]')!;
}

describe('<social-link-button>', () => {
  afterEach(() => {
    for (const dialog of openDialogs()) dialog.remove();
  });

  it('renders a button with the default label, replaceable by texts or slot', async () => {
    const el = await fixture<SocialLinkButton>(html`<social-link-button></social-link-button>`);
    const button = innerButton(el);
    expect(button.tagName).to.equal('BUTTON');
    expect(button.getAttribute('type')).to.equal('button');
    expect(el.shadowRoot!.querySelector('slot')!.textContent).to.equal('Connect social accounts');
    el.texts = { button: 'Konten verbinden' };
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('slot')!.textContent).to.equal('Konten verbinden');
    const slotted = await fixture<SocialLinkButton>(html`<social-link-button>Link X</social-link-button>`);
    expect(slotted.textContent).to.equal('Link X');
  });

  it('is accessible (axe)', async () => {
    const el = await fixture<SocialLinkButton>(html`<social-link-button></social-link-button>`);
    await expect(el).to.be.accessible();
  });

  it('click in frame mode opens the dialog; events fire on the element, bubble and cross shadow roots', async () => {
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    const root = host.attachShadow({ mode: 'open' });
    const el = document.createElement('social-link-button');
    el.url = hostedUrl(['ready', 'success:instagram']);
    root.append(el);
    await el.updateComplete;
    // Listening outside the integrator's shadow root: bubbles + composed. Read target and path during dispatch.
    let seenTarget: EventTarget | null = null;
    let pathStart: EventTarget | undefined;
    host.addEventListener('social-link-success', (event) => {
      seenTarget = event.target;
      pathStart = event.composedPath()[0];
    });
    setTimeout(() => innerButton(el).click());
    const success = (await oneEvent(host, 'social-link-success')) as SocialLinkSuccessEvent;
    expect(seenTarget === host, 'retargeted to the shadow host').to.equal(true);
    expect(pathStart === el, 'dispatched on the element').to.equal(true);
    expect(success.detail).to.deep.equal({ sessionId: SESSION_ID, platform: 'instagram', via: 'message' });
    expect(openDialogs()).to.have.length(0);
  });

  it('shows a busy state while getUrl resolves', async () => {
    let resolveUrl!: (url: string) => void;
    const el = await fixture<SocialLinkButton>(html`<social-link-button></social-link-button>`);
    el.getUrl = () => new Promise((resolve) => (resolveUrl = resolve));
    innerButton(el).click();
    await el.updateComplete;
    expect(innerButton(el).getAttribute('aria-busy')).to.equal('true');
    resolveUrl(hostedUrl(['ready']));
    await oneEvent(el, 'social-link-ready');
    await el.updateComplete;
    expect(innerButton(el).getAttribute('aria-busy')).to.equal('false');
  });

  it('popup mode: opens inside the click, announces a blocked popup in its status part', async () => {
    const popups = recordPopups();
    try {
      const el = await fixture<SocialLinkButton>(html`<social-link-button mode="popup"></social-link-button>`);
      el.getUrl = async () => hostedUrl(['ready']);
      innerButton(el).click();
      expect(popups.calls).to.have.length(1);
      await oneEvent(el, 'social-link-ready');
      window.open = () => null;
      setTimeout(() => innerButton(el).click());
      const error = await oneEvent(el, 'social-link-error');
      expect(error.detail.reason).to.equal('popup_blocked');
      await el.updateComplete;
      const status = el.shadowRoot!.querySelector('[part="status"]')!;
      expect(status.getAttribute('role')).to.equal('status');
      expect(status.textContent).to.contain('blocked');
    } finally {
      popups.restore();
    }
  });

  it('direct mode with a url renders a plain link (no script needed), without Referer', async () => {
    const url = hostedUrl();
    const el = await fixture<SocialLinkButton>(html`<social-link-button mode="direct" url=${url}></social-link-button>`);
    const link = innerButton(el);
    expect(link.tagName).to.equal('A');
    expect(link.getAttribute('href')).to.equal(url);
    expect(link.getAttribute('referrerpolicy')).to.equal('no-referrer');
    await expect(el).to.be.accessible();
  });

  it('keep-open keeps the dialog after a success', async () => {
    const el = await fixture<SocialLinkButton>(html`<social-link-button keep-open></social-link-button>`);
    el.url = hostedUrl(['ready', 'success:twitter']);
    innerButton(el).click();
    await oneEvent(el, 'social-link-success');
    expect(openDialogs()).to.have.length(1);
    openDialog().remove();
  });

  it('removing the element removes its overlay (no orphan iframe)', async () => {
    const el = await fixture<SocialLinkButton>(html`<social-link-button></social-link-button>`);
    el.url = hostedUrl(['ready']);
    innerButton(el).click();
    await until(() => openDialogs().length === 1 && frameOf() !== null);
    el.remove();
    expect(openDialogs()).to.have.length(0);
    expect(document.querySelectorAll('iframe')).to.have.length(0);
  });

  it('exposes parts for theming and reads custom properties', async () => {
    const el = await fixture<SocialLinkButton>(
      html`<social-link-button style="--social-link-button-background: rgb(1, 2, 3)"></social-link-button>`,
    );
    expect(getComputedStyle(innerButton(el)).backgroundColor).to.equal('rgb(1, 2, 3)');
    el.url = hostedUrl();
    innerButton(el).click();
    const dialog = openDialog();
    await dialog.updateComplete;
    const parts = [...dialog.shadowRoot!.querySelectorAll('[part]')].map((node) => node.getAttribute('part'));
    expect(parts).to.include.members(['dialog', 'header', 'title', 'close-button', 'body', 'frame']);
    dialog.shadowRoot!.querySelector<HTMLButtonElement>('[part="close-button"]')!.click();
  });
});
