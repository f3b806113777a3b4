import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { open } from '../../src/widget/open.js';
import { SocialLinkDialog } from '../../src/widget/social-link-dialog.js';
import type { LinkHandle } from '../../src/widget/link-options.js';
import type { SocialLinkCancelEvent } from '../../src/widget/events/social-link-cancel.js';
import type { SocialLinkErrorEvent } from '../../src/widget/events/social-link-error.js';
import {
  ALL_EVENTS,
  allFrames,
  frameOf,
  hostedUrl,
  message,
  openDialog,
  openDialogs,
  postFrom,
  recordEvents,
  SESSION_ID,
  afterTimersUpTo,
  received,
  sentinelFrom,
  SENTINEL_CODE,
  until,
} from './helpers.js';

/**
 * The ready wait of the tests that require NO load_timeout: the stand-in page must load and answer within it, which
 * took over 300 ms once beside CI's other suites, so it is long enough for a loaded machine (and waited out in full).
 */
const NO_TIMEOUT_WITHIN_MS = 2000;

describe('open({ mode: "frame" })', () => {
  let handle: LinkHandle | undefined;
  afterEach(() => {
    handle?.close();
    handle = undefined;
    expect(openDialogs()).to.have.length(0);
  });

  it('the dialog has no frame window before it is first connected, and one once its frame exists', async () => {
    SocialLinkDialog.define();
    const dialog = document.createElement(SocialLinkDialog.tagName) as SocialLinkDialog;
    expect(dialog.frameWindow).to.equal(null);
    handle = open({ url: hostedUrl(['ready']) });
    await oneEvent(document, 'social-link-ready');
    expect(openDialog().frameWindow).to.equal(frameOf()?.contentWindow);
    expect(openDialog().frameWindow).not.to.equal(null);
  });

  it('shows a labelled modal dialog with a sandboxed, no-referrer iframe of the hosted page', async () => {
    const url = hostedUrl();
    handle = open({ url });
    const dialog = openDialog();
    await dialog.updateComplete;
    const native = dialog.shadowRoot!.querySelector('dialog')!;
    expect(native.open).to.equal(true);
    expect(native.matches(':modal')).to.equal(true);
    const title = dialog.shadowRoot!.getElementById(native.getAttribute('aria-labelledby')!)!;
    expect(title.textContent).to.equal('Connect your social accounts');
    const frame = frameOf()!;
    // The widget adds the origin it runs on, so a link made for another origin can say so at once.
    expect(frame.getAttribute('src')).to.equal(`${url}&from=${encodeURIComponent(location.origin)}&embed=frame`);
    expect(frame.getAttribute('sandbox')!.split(' ').sort()).to.deep.equal(
      ['allow-forms', 'allow-popups', 'allow-popups-to-escape-sandbox', 'allow-same-origin', 'allow-scripts'],
    );
    expect(frame.getAttribute('referrerpolicy')).to.equal('no-referrer');
    expect(frame.hasAttribute('allow')).to.equal(false);
    expect(frame.title).to.equal('Account linking');
  });

  it('shows a loading state while getUrl resolves and until the page is ready', async () => {
    let resolveUrl!: (url: string) => void;
    handle = open({ getUrl: () => new Promise((resolve) => (resolveUrl = resolve)) });
    const dialog = openDialog();
    await dialog.updateComplete;
    expect(dialog.shadowRoot!.querySelector('[part="loading"]')!.textContent).to.equal('Loading…');
    expect(dialog.shadowRoot!.querySelector('dialog')!.getAttribute('aria-busy')).to.equal('true');
    expect(frameOf()).to.equal(null);
    resolveUrl(hostedUrl(['ready']));
    const ready = await oneEvent(document, 'social-link-ready');
    expect(ready.detail).to.deep.equal({ sessionId: SESSION_ID });
    await dialog.updateComplete;
    expect(dialog.shadowRoot!.querySelector('[part="loading"]')).to.equal(null);
    expect(dialog.shadowRoot!.querySelector('dialog')!.getAttribute('aria-busy')).to.equal('false');
    expect(handle.sessionId).to.equal(SESSION_ID);
  });

  it('shows the frame at once, over the loading note, before the page is ready', async () => {
    handle = open({ url: hostedUrl([]) });
    const dialog = openDialog();
    await dialog.updateComplete;
    // The page paints as soon as it can; the note stays behind the frame until the page announces itself.
    expect(frameOf()!.classList.contains('loading')).to.equal(false);
    expect(getComputedStyle(frameOf()!).visibility).to.equal('visible');
    expect(dialog.shadowRoot!.querySelector('[part="loading"]')).not.to.equal(null);
  });

  it('says so when the hosted page does not answer in time (load_timeout), and goes on if it answers late', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({ url: hostedUrl([]), readyTimeoutMs: 300 });
    const dialog = openDialog();
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail).to.deep.include({ sessionId: null, code: null, reason: 'load_timeout' });
    await dialog.updateComplete;
    const notice = dialog.shadowRoot!.querySelector('[part="timeout"]')!;
    expect(notice.getAttribute('role')).to.equal('alert');
    expect(notice.textContent).to.contain('not responding');
    expect(dialog.shadowRoot!.querySelector('[part="loading"]')).to.equal(null);
    expect(frameOf()!.classList.contains('loading')).to.equal(true, 'the silent frame stays hidden');
    expect(openDialogs()).to.have.length(1, 'the user closes it, or the page answers late');
    await expect(dialog).to.be.accessible();

    postFrom(frameOf()!.contentWindow!, message('connect:ready'));
    await oneEvent(document, 'social-link-ready');
    await dialog.updateComplete;
    expect(dialog.shadowRoot!.querySelector('[part="timeout"]')).to.equal(null);
    expect(frameOf()!.classList.contains('loading')).to.equal(false);
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-error', 'social-link-ready']);
  });

  it('ignores an unusable readyTimeoutMs (0, negative, Infinity) instead of timing out at once', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    for (const readyTimeoutMs of [0, -1, Infinity]) {
      handle = open({ url: hostedUrl([]), readyTimeoutMs });
      // A delay the browser fires at once would have fired before the hosted page loaded and posted the sentinel.
      await openDialog().updateComplete;
      await oneEvent(frameOf()!, 'load');
      await sentinelFrom(frameOf()!.contentWindow!);
      handle.close();
    }
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-error', 'social-link-error', 'social-link-error']);
    expect(seen.every((event) => (event as SocialLinkErrorEvent).detail.code === SENTINEL_CODE)).to.equal(true);
  });

  it('an origin_mismatch error from the page stops the wait at once: the page shows, no load_timeout follows', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({ url: hostedUrl([]), readyTimeoutMs: NO_TIMEOUT_WITHIN_MS });
    const dialog = openDialog();
    await dialog.updateComplete;
    await oneEvent(frameOf()!, 'load');
    postFrom(frameOf()!.contentWindow!, message('connect:error', { code: 505, message: 'opened elsewhere', reason: 'origin_mismatch' }));
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail).to.deep.include({ sessionId: SESSION_ID, code: 505, reason: 'origin_mismatch' });
    await dialog.updateComplete;
    expect(frameOf()!.classList.contains('loading')).to.equal(false, 'the page and its notice show');
    await afterTimersUpTo(NO_TIMEOUT_WITHIN_MS);
    expect(dialog.shadowRoot!.querySelector('[part="timeout"]')).to.equal(null);
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-error'], 'no ready, no load_timeout');
    expect(openDialogs()).to.have.length(1, 'the user reads the notice and closes it');
  });

  it('raises no load_timeout once the hosted page is ready', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({ url: hostedUrl(['ready']), readyTimeoutMs: NO_TIMEOUT_WITHIN_MS });
    await oneEvent(document, 'social-link-ready');
    await afterTimersUpTo(NO_TIMEOUT_WITHIN_MS);
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-ready']);
    expect(openDialog().shadowRoot!.querySelector('[part="timeout"]')).to.equal(null);
  });

  it('fires ready, then success once (DOM event and callbacks) and closes after the success', async () => {
    const calls: string[] = [];
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({
      url: hostedUrl(['ready', 'success:twitter', 'success:twitter']),
      onReady: () => calls.push('onReady'),
      onSuccess: (detail) => calls.push(`onSuccess:${detail.platform}`),
      onEvent: (event) => calls.push(`onEvent:${event.type}`),
    });
    const success = await oneEvent(document, 'social-link-success');
    expect(success.bubbles && success.composed).to.equal(true);
    expect(success.detail).to.deep.equal({ sessionId: SESSION_ID, platform: 'twitter', via: 'message' });
    expect(openDialogs()).to.have.length(0);
    expect(handle.closed).to.equal(true);
    // The run removed its frame with the first success and stopped listening: the page's second success can no
    // longer reach it, so the events recorded now are final.
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-ready', 'social-link-success']);
    expect(calls).to.deep.equal(['onReady', 'onEvent:ready', 'onSuccess:twitter', 'onEvent:success']);
  });

  it('with closeOnSuccess false, stays open, reports each network once, errors do not close', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({ url: hostedUrl(['ready']), closeOnSuccess: false });
    await oneEvent(document, 'social-link-ready');
    const win = frameOf()!.contentWindow!;
    postFrom(win, message('connect:error', { platform: 'youtube', code: 513, message: 'Connecting failed' }));
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail).to.deep.equal({
      sessionId: SESSION_ID,
      platform: 'youtube',
      code: 513,
      reason: null,
      message: 'Connecting failed',
    });
    postFrom(win, message('connect:success', { platform: 'youtube' }));
    postFrom(win, message('connect:success', { platform: 'youtube' }));
    const lastSuccess = received((data) => data.event === 'connect:success' && data.platform === 'bluesky');
    postFrom(win, message('connect:success', { platform: 'bluesky' }));
    await lastSuccess;
    expect(seen.map((event) => event.type)).to.deep.equal([
      'social-link-ready',
      'social-link-error',
      'social-link-success',
      'social-link-success',
    ]);
    expect(openDialogs()).to.have.length(1);
    // Closing after a success is a close, not a cancel.
    handle.close();
    expect(openDialogs()).to.have.length(0);
  });

  it('closes on connect:cancelled from the hosted page (expired) and reports it', async () => {
    handle = open({ url: hostedUrl(['ready', 'cancel:expired']) });
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(cancel.detail).to.deep.equal({ sessionId: SESSION_ID, reason: 'expired' });
    expect(openDialogs()).to.have.length(0);
  });

  it('keeps the dialog open when a network attempt is cancelled, and reports each attempt', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    handle = open({ url: hostedUrl(['ready']) });
    await oneEvent(document, 'social-link-ready');
    const win = frameOf()!.contentWindow!;
    postFrom(win, message('connect:cancelled', { platform: 'facebook', reason: 'popup_closed' }));
    postFrom(win, message('connect:cancelled', { platform: 'facebook', reason: 'popup_closed' }));
    postFrom(win, message('connect:error', { platform: 'facebook', code: 513, message: 'failed' }));
    postFrom(win, message('connect:error', { platform: 'facebook', code: 513, message: 'failed' }));
    await until(() => seen.length === 5);
    expect(seen.map((event) => event.type)).to.deep.equal([
      'social-link-ready',
      'social-link-cancel',
      'social-link-cancel',
      'social-link-error',
      'social-link-error',
    ]);
    expect(openDialogs()).to.have.length(1);
  });

  it('keeps the dialog open on a denied network (one attempt, not the whole link)', async () => {
    handle = open({ url: hostedUrl(['ready']) });
    await oneEvent(document, 'social-link-ready');
    postFrom(frameOf()!.contentWindow!, message('connect:cancelled', { platform: 'reddit', reason: 'denied' }));
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(cancel.detail).to.deep.equal({ sessionId: SESSION_ID, platform: 'reddit', reason: 'denied' });
    expect(openDialogs()).to.have.length(1);
  });

  it('close button: cancel with close_button, iframe removed, focus restored to the opener', async () => {
    const opener = document.createElement('button');
    opener.textContent = 'Link';
    document.body.append(opener);
    opener.focus();
    const onCancel: unknown[] = [];
    handle = open({ url: hostedUrl(['ready']), onCancel: (detail) => onCancel.push(detail) });
    await oneEvent(document, 'social-link-ready');
    const closeButton = openDialog().shadowRoot!.querySelector<HTMLButtonElement>('[part="close-button"]')!;
    expect(closeButton.getAttribute('aria-label')).to.equal('Close');
    setTimeout(() => closeButton.click());
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(cancel.detail).to.deep.equal({ sessionId: SESSION_ID, reason: 'close_button' });
    expect(onCancel).to.deep.equal([{ sessionId: SESSION_ID, reason: 'close_button' }]);
    expect(allFrames()).to.have.length(0);
    expect(document.querySelectorAll('iframe')).to.have.length(0);
    expect(document.activeElement).to.equal(opener);
    opener.remove();
  });

  it('Escape: cancel with escape, before ready the session id is null', async () => {
    handle = open({ getUrl: () => new Promise(() => {}) });
    await openDialog().updateComplete;
    setTimeout(() => void sendKeys({ press: 'Escape' }));
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(cancel.detail).to.deep.equal({ sessionId: null, reason: 'escape' });
    expect(openDialogs()).to.have.length(0);
  });

  it('uses the session id from getUrl before ready', async () => {
    handle = open({ getUrl: async () => ({ url: hostedUrl(), sessionId: 'sess_from_backend' }) });
    await until(() => frameOf() !== null);
    expect(handle.sessionId).to.equal('sess_from_backend');
    openDialog().shadowRoot!.querySelector<HTMLButtonElement>('[part="close-button"]')!.click();
  });

  it('traps focus: the page behind the modal cannot take focus', async () => {
    const outside = document.createElement('button');
    outside.textContent = 'Outside';
    document.body.append(outside);
    handle = open({ url: hostedUrl(['ready']) });
    await oneEvent(document, 'social-link-ready');
    outside.focus();
    expect(document.activeElement).not.to.equal(outside);
    for (let i = 0; i < 4; i++) {
      await sendKeys({ press: 'Tab' });
      expect(document.activeElement).not.to.equal(outside);
    }
    outside.remove();
  });

  it('getUrl rejecting: error url_failed and the dialog is removed', async () => {
    handle = open({ getUrl: () => Promise.reject(new Error('backend down')) });
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail).to.deep.equal({ sessionId: null, code: null, reason: 'url_failed', message: 'backend down' });
    expect(openDialogs()).to.have.length(0);
  });

  it('refuses a URL that is not http(s): error invalid_url', async () => {
    handle = open({ url: 'javascript:alert(1)' });
    // Fired synchronously inside open(); the dialog never shows a frame.
    expect(handle.closed).to.equal(true);
    expect(openDialogs()).to.have.length(0);
    const errors: SocialLinkErrorEvent[] = [];
    document.addEventListener('social-link-error', (event) => errors.push(event), { once: true });
    handle = open({ getUrl: async () => 'data:text/html,hi' });
    await until(() => errors.length === 1);
    expect(errors[0]!.detail.reason).to.equal('invalid_url');
  });

  it('replaces every text for translation', async () => {
    handle = open({
      getUrl: () => new Promise(() => {}),
      texts: { dialogTitle: 'Verbinde deine Konten', close: 'Schließen', loading: 'Lädt…' },
    });
    const dialog = openDialog();
    await dialog.updateComplete;
    expect(dialog.shadowRoot!.querySelector('[part="title"]')!.textContent).to.equal('Verbinde deine Konten');
    expect(dialog.shadowRoot!.querySelector('[part="close-button"]')!.getAttribute('aria-label')).to.equal('Schließen');
    expect(dialog.shadowRoot!.querySelector('[part="loading"]')!.textContent).to.equal('Lädt…');
  });

  it('is accessible (axe) while open', async () => {
    handle = open({ url: hostedUrl(['ready']) });
    await oneEvent(document, 'social-link-ready');
    await expect(openDialog()).to.be.accessible();
  });
});

