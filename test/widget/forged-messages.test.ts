import { expect, oneEvent } from '@open-wc/testing';
import { open } from '../../src/widget/open.js';
import type { LinkHandle } from '../../src/widget/link-options.js';
import {
  ALL_EVENTS,
  HOSTED_ORIGIN,
  frameOf,
  hostedUrl,
  message,
  postFrom,
  recordEvents,
  received,
  recordPopups,
  sentinelFrom,
} from './helpers.js';

/** Only the sentinel's event: nothing posted before it was accepted. */
const ONLY_SENTINEL = ['social-link-error'];
const types = (events: Event[]) => events.map((event) => event.type);

describe('inbound messages: only the hosted page in our own window, only valid envelopes', () => {
  let handle: LinkHandle | undefined;
  const extras: HTMLIFrameElement[] = [];
  afterEach(() => {
    handle?.close();
    handle = undefined;
    for (const frame of extras.splice(0)) frame.remove();
  });

  async function openFrame(): Promise<Window> {
    handle = open({ url: hostedUrl(['ready']), closeOnSuccess: false });
    await oneEvent(document, 'social-link-ready');
    return frameOf()!.contentWindow!;
  }

  it('ignores a valid envelope posted from the same window (wrong origin and source)', async () => {
    await openFrame();
    const seen = recordEvents(document, ALL_EVENTS);
    const arrived = received((data) => data.event === 'connect:success');
    // eslint-disable-next-line @microsoft/sdl/no-postmessage-star-origin -- the forged message under test: the widget must ignore it
    window.postMessage(message('connect:success', { platform: 'twitter' }), '*');
    await arrived;
    expect(seen).to.have.length(0);
  });

  it('ignores a sibling iframe on the hosted origin that is not ours', async () => {
    await openFrame();
    const seen = recordEvents(document, ALL_EVENTS);
    // The sibling's last step: once it has arrived, so have the two before it.
    const arrived = received((data) => data.event === 'connect:cancelled');
    const sibling = document.createElement('iframe');
    sibling.title = 'sibling';
    sibling.src = hostedUrl(['ready', 'success:twitter', 'cancel:expired']);
    extras.push(sibling);
    document.body.append(sibling);
    await arrived;
    expect(seen).to.have.length(0);
    expect(handle!.closed).to.equal(false);
  });

  it('ignores our own frame once it shows another origin', async () => {
    const win = await openFrame();
    const seen = recordEvents(document, ALL_EVENTS);
    // Our iframe navigates to a page on the integrator's origin that posts a valid success to its parent.
    const sameOriginPage = hostedUrl(['success:twitter'], 'sess_1', location.origin);
    const arrived = received((data) => data.event === 'connect:success');
    win.postMessage({ cmd: 'navigate', url: sameOriginPage }, HOSTED_ORIGIN);
    await arrived;
    expect(seen).to.have.length(0);
  });

  it('ignores malformed payloads from the right window, then accepts a valid one', async () => {
    const win = await openFrame();
    const seen = recordEvents(document, ALL_EVENTS);
    const forged: unknown[] = [
      'connect:success',
      null,
      42,
      [message('connect:success', { platform: 'twitter' })],
      message('connect:success', { platform: 'myspace' }),
      message('connect:success'),
      message('connect:success', { platform: 'twitter', token: 'leak' }),
      { ...message('connect:success', { platform: 'twitter' }), source: 'other-kit' },
      { ...message('connect:success', { platform: 'twitter' }), version: 2 },
      { ...message('connect:success', { platform: 'twitter' }), sessionId: '' },
      { ...message('connect:success', { platform: 'twitter' }), sessionId: 'x'.repeat(65) },
      message('connect:error', { code: 1.5, message: 'x' }),
      message('connect:error', { code: 513 }),
      message('connect:error', { code: 513, message: 'x'.repeat(501) }),
      message('connect:cancelled', { reason: 'bored' }),
      message('connect:done' as never),
    ];
    for (const data of forged) postFrom(win, data);
    // The valid message posted last is the sentinel: its event is the only one.
    postFrom(win, message('connect:success', { platform: 'twitter' }));
    const success = await oneEvent(document, 'social-link-success');
    expect(success.detail.platform).to.equal('twitter');
    expect(types(seen)).to.deep.equal(['social-link-success']);
  });

  it('ignores messages about another session once the session is known', async () => {
    const win = await openFrame();
    const seen = recordEvents(document, ALL_EVENTS);
    postFrom(win, { ...message('connect:success', { platform: 'twitter' }), sessionId: 'sess_other' });
    await sentinelFrom(win);
    expect(types(seen)).to.deep.equal(ONLY_SENTINEL);
  });

  it('in popup mode, ignores an iframe on the hosted origin (only the popup is the source)', async () => {
    const popups = recordPopups();
    try {
      handle = open({ mode: 'popup', url: hostedUrl(['ready']), closeGraceMs: 50, pollMs: 30 });
      await oneEvent(document, 'social-link-ready');
      const seen = recordEvents(document, ALL_EVENTS);
      const arrived = received((data) => data.event === 'connect:success');
      const frame = document.createElement('iframe');
      frame.title = 'impostor';
      frame.src = hostedUrl(['success:twitter']);
      extras.push(frame);
      document.body.append(frame);
      await arrived;
      expect(seen).to.have.length(0);
    } finally {
      handle?.close();
      popups.restore();
    }
  });
});
