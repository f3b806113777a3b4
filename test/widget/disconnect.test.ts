import { expect } from '@open-wc/testing';
import { open } from '../../src/widget/open.js';
import type { LinkEventDetail } from '../../src/widget/link-options.js';
import { ALL_EVENTS, hostedUrl, openDialogs, recordEvents, until } from './helpers.js';

describe('connect:disconnected', () => {
  afterEach(() => {
    for (const dialog of openDialogs()) dialog.remove();
  });

  it('becomes social-link-disconnect and onDisconnect; linking the network again is reported again', async () => {
    const events = recordEvents(document, [...ALL_EVENTS, 'social-link-disconnect']);
    const seen: LinkEventDetail[] = [];
    const disconnected: string[] = [];
    const handle = open({
      url: hostedUrl(['ready', 'success:twitter', 'disconnect:twitter', 'success:twitter']),
      mode: 'frame',
      closeOnSuccess: false,
      onEvent: (event) => seen.push(event),
      onDisconnect: ({ platform }) => disconnected.push(platform),
    });
    await until(() => seen.length === 4);
    expect(seen.map((event) => event.type)).to.deep.equal(['ready', 'success', 'disconnect', 'success']);
    expect(events.map((event) => event.type)).to.deep.equal(['social-link-ready', 'social-link-success', 'social-link-disconnect', 'social-link-success']);
    expect(disconnected).to.deep.equal(['twitter']);
    expect(events[2]!.bubbles && events[2]!.composed).to.equal(true);
    expect(handle.closed).to.equal(false);
    handle.close();
  });
});

describe('connect:resize', () => {
  afterEach(() => {
    for (const dialog of openDialogs()) dialog.remove();
  });

  it('fits the frame-mode dialog to the hosted page’s content height (plus the close row), within the viewport', async () => {
    const handle = open({ url: hostedUrl(['ready', 'resize:300']), mode: 'frame' });
    const dialog = openDialogs()[0]!;
    await until(() => dialog.style.getPropertyValue('--social-link-content-height') === '300px');
    const box = dialog.shadowRoot!.querySelector('dialog')!.getBoundingClientRect();
    expect(Math.round(box.height)).to.equal(Math.min(300 + 44, window.innerHeight - 32));
    handle.close();
  });
});
