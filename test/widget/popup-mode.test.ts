import { expect, oneEvent } from '@open-wc/testing';
import { open } from '../../src/widget/open.js';
import type { LinkHandle, LinkStatus } from '../../src/widget/link-options.js';
import type { SocialLinkCancelEvent } from '../../src/widget/events/social-link-cancel.js';
import type { SocialLinkErrorEvent } from '../../src/widget/events/social-link-error.js';
import type { SocialLinkSuccessEvent } from '../../src/widget/events/social-link-success.js';
import { afterTimersUpTo, ALL_EVENTS, hostedUrl, recordEvents, recordPopups, SESSION_ID, until } from './helpers.js';

const fast = { closeGraceMs: 100, pollMs: 30 };

describe('open({ mode: "popup" })', () => {
  let handle: LinkHandle | undefined;
  let popups: ReturnType<typeof recordPopups>;
  beforeEach(() => (popups = recordPopups()));
  afterEach(() => {
    handle?.close();
    handle = undefined;
    popups.restore();
  });

  it('opens about:blank synchronously, before getUrl resolves, without noopener, then navigates', async () => {
    let resolveUrl!: (url: string) => void;
    let getUrlCalled = false;
    handle = open({
      mode: 'popup',
      getUrl: () => {
        getUrlCalled = true;
        return new Promise((resolve) => (resolveUrl = resolve));
      },
    });
    // Still inside the same task as the "click": window.open already happened.
    expect(popups.calls).to.have.length(1);
    expect(popups.calls[0]![0]).to.equal('about:blank');
    expect(String(popups.calls[0]![2])).not.to.match(/noopener|noreferrer/);
    expect(getUrlCalled).to.equal(true);
    const popup = popups.windows[0]!;
    await Promise.resolve(); // the note is written once getUrl has been asked
    expect(popup.document.body.textContent).to.equal('Loading…');
    resolveUrl(hostedUrl(['ready']));
    const ready = await oneEvent(document, 'social-link-ready');
    expect(ready.detail).to.deep.equal({ sessionId: SESSION_ID });
  });

  it('asks getUrl before it writes its loading note into the new window', async () => {
    let noteWhenAsked: string | null = null;
    handle = open({
      mode: 'popup',
      getUrl: () => {
        noteWhenAsked = popups.windows[0]!.document.body?.textContent ?? '';
        return new Promise(() => {});
      },
    });
    expect(noteWhenAsked).to.equal('');
    await Promise.resolve();
    expect(popups.windows[0]!.document.body.textContent).to.equal('Loading…');
  });

  it('success from the popup fires once and closes the popup', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    const successes: unknown[] = [];
    handle = open({
      mode: 'popup',
      url: hostedUrl(['ready', 'success:linkedin', 'success:linkedin']),
      onSuccess: (detail) => successes.push(detail),
      ...fast,
    });
    const success = (await oneEvent(document, 'social-link-success')) as SocialLinkSuccessEvent;
    expect(success.detail).to.deep.equal({ sessionId: SESSION_ID, platform: 'linkedin', via: 'message' });
    await until(() => popups.windows[0]!.closed);
    // The run stopped listening with the first success; a close noticed before it would decide after the grace
    // period, and must decide nothing.
    await afterTimersUpTo(fast.closeGraceMs);
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-ready', 'social-link-success']);
    expect(successes).to.have.length(1);
  });

  it('reports popup_blocked clearly when window.open returns null', async () => {
    window.open = () => null;
    const errors: unknown[] = [];
    const seen = recordEvents(document, ['social-link-error']);
    handle = open({ mode: 'popup', getUrl: async () => hostedUrl(), onError: (detail) => errors.push(detail) });
    expect(handle.closed).to.equal(true);
    expect((seen[0] as SocialLinkErrorEvent).detail).to.deep.equal({
      sessionId: null,
      code: null,
      reason: 'popup_blocked',
      message: 'Your browser blocked the linking window. Allow popups for this site and try again.',
    });
    expect(errors).to.have.length(1);
  });

  it('closed popup without checkStatus: cancel popup_closed after the grace period', async () => {
    handle = open({ mode: 'popup', url: hostedUrl(['ready']), ...fast });
    await oneEvent(document, 'social-link-ready');
    const closedAt = Date.now();
    popups.windows[0]!.close();
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(Date.now() - closedAt).to.be.at.least(100);
    expect(cancel.detail).to.deep.equal({ sessionId: SESSION_ID, reason: 'popup_closed' });
    expect(handle.closed).to.equal(true);
  });

  it('a message that arrives during the grace period wins over the close', async () => {
    const seen = recordEvents(document, ALL_EVENTS);
    // The hosted page posts its success and closes itself right away.
    handle = open({ mode: 'popup', url: hostedUrl(['ready', 'success:tiktok', 'close']), ...fast });
    await oneEvent(document, 'social-link-success');
    // The close may have been noticed first: its grace-period decision must not add a cancel.
    await afterTimersUpTo(fast.closeGraceMs);
    expect(seen.map((event) => event.type)).to.deep.equal(['social-link-ready', 'social-link-success']);
  });

  it('closed popup with checkStatus reporting a completed network: success via status', async () => {
    const asked: (string | null)[] = [];
    handle = open({
      mode: 'popup',
      url: hostedUrl(['ready']),
      checkStatus: async (sessionId): Promise<LinkStatus> => {
        asked.push(sessionId);
        return { state: 'active', completedNetworks: ['telegram'] };
      },
      ...fast,
    });
    await oneEvent(document, 'social-link-ready');
    popups.windows[0]!.close();
    const success = (await oneEvent(document, 'social-link-success')) as SocialLinkSuccessEvent;
    expect(success.detail).to.deep.equal({ sessionId: SESSION_ID, platform: 'telegram', via: 'status' });
    expect(asked).to.deep.equal([SESSION_ID]);
  });

  for (const [state, reason] of [
    ['active', 'popup_closed'],
    ['expired', 'expired'],
    ['revoked', 'revoked'],
  ] as const) {
    it(`closed popup, checkStatus says ${state} with nothing completed: cancel ${reason}`, async () => {
      handle = open({
        mode: 'popup',
        url: hostedUrl(['ready']),
        checkStatus: async () => ({ state, completedNetworks: [] }),
        ...fast,
      });
      await oneEvent(document, 'social-link-ready');
      popups.windows[0]!.close();
      const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
      expect(cancel.detail.reason).to.equal(reason);
    });
  }

  it('checkStatus failing counts as a closed popup', async () => {
    handle = open({
      mode: 'popup',
      url: hostedUrl(),
      checkStatus: () => Promise.reject(new Error('backend down')),
      ...fast,
    });
    popups.windows[0]!.close();
    const cancel = (await oneEvent(document, 'social-link-cancel')) as SocialLinkCancelEvent;
    expect(cancel.detail).to.deep.equal({ sessionId: null, reason: 'popup_closed' });
  });

  it('connect:error from the popup is reported and leaves it open', async () => {
    handle = open({ mode: 'popup', url: hostedUrl(['ready', 'error:513']), ...fast });
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail).to.deep.equal({ sessionId: SESSION_ID, code: 513, reason: null, message: 'failed' });
    expect(popups.windows[0]!.closed).to.equal(false);
    expect(handle.closed).to.equal(false);
  });

  it('handle.close() closes the popup and fires nothing', async () => {
    const seen = recordEvents(document, ['social-link-cancel']);
    handle = open({ mode: 'popup', url: hostedUrl(['ready']), ...fast });
    await oneEvent(document, 'social-link-ready');
    handle.close();
    expect(popups.windows[0]!.closed).to.equal(true);
    await afterTimersUpTo(fast.pollMs + fast.closeGraceMs);
    expect(seen).to.have.length(0);
  });
});
