import { expect, oneEvent } from '@open-wc/testing';
import { open } from '../../src/widget/open.js';
import type { SocialLinkErrorEvent } from '../../src/widget/events/social-link-error.js';
import { HOSTED_ORIGIN } from './helpers.js';

describe('open({ mode: "direct" })', () => {
  it('navigates the window to the link URL (after getUrl) and sends no messages', async () => {
    // The "integrator page" runs in an iframe so the navigation does not end the test page.
    const target = `${HOSTED_ORIGIN}/test/widget/fixtures/arrived.html?origin=${encodeURIComponent(location.origin)}&session=tok`;
    const frame = document.createElement('iframe');
    frame.title = 'integrator page';
    frame.src = `/test/widget/fixtures/direct.html?url=${encodeURIComponent(target)}`;
    const arrived = new Promise<MessageEvent>((resolve) => {
      window.addEventListener('message', function onMessage(event) {
        if (event.data?.fixture !== 'arrived') return;
        window.removeEventListener('message', onMessage);
        resolve(event);
      });
    });
    document.body.append(frame);
    const event = await arrived;
    expect(event.origin).to.equal(HOSTED_ORIGIN);
    expect(event.data.search).to.contain('session=tok');
    frame.remove();
  });

  it('reports a failing getUrl as an error and does not navigate', async () => {
    const handle = open({ mode: 'direct', getUrl: () => Promise.reject(new Error('nope')) });
    const error = (await oneEvent(document, 'social-link-error')) as SocialLinkErrorEvent;
    expect(error.detail.reason).to.equal('url_failed');
    expect(handle.closed).to.equal(true);
    expect(location.pathname).not.to.contain('hosted');
  });
});
