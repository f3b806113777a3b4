import { expect, oneEvent } from '@open-wc/testing';
import { open } from '../../src/widget/open.js';
import type { LinkHandle } from '../../src/widget/link-options.js';
import type { SocialLinkCancelEvent } from '../../src/widget/events/social-link-cancel.js';
import { allFrames, hostedUrl, openDialogs, recordPopups } from './helpers.js';

describe('opening twice', () => {
  const handles: LinkHandle[] = [];
  afterEach(() => {
    for (const handle of handles.splice(0)) handle.close();
    expect(openDialogs()).to.have.length(0);
  });

  it('supersedes the first frame: cancel superseded, exactly one dialog and iframe left', async () => {
    const cancels: SocialLinkCancelEvent[] = [];
    document.addEventListener('social-link-cancel', (event) => cancels.push(event));
    const first = open({ url: hostedUrl(['ready']) });
    handles.push(first);
    await oneEvent(document, 'social-link-ready');
    const second = open({ url: hostedUrl(['ready']) });
    handles.push(second);
    expect(cancels.map((event) => event.detail)).to.deep.equal([{ sessionId: 'sess_1', reason: 'superseded' }]);
    expect(first.closed).to.equal(true);
    expect(second.closed).to.equal(false);
    await openDialogs()[0]!.updateComplete;
    expect(openDialogs()).to.have.length(1);
    expect(allFrames()).to.have.length(1);
    await oneEvent(document, 'social-link-ready');
  });

  it('calls the first onCancel, not the second', () => {
    const firstCancels: string[] = [];
    const secondCancels: string[] = [];
    handles.push(open({ getUrl: () => new Promise(() => {}), onCancel: (d) => firstCancels.push(d.reason) }));
    handles.push(open({ getUrl: () => new Promise(() => {}), onCancel: (d) => secondCancels.push(d.reason) }));
    expect(firstCancels).to.deep.equal(['superseded']);
    expect(secondCancels).to.deep.equal([]);
    expect(openDialogs()).to.have.length(1);
  });

  it('supersedes a popup: the first window closes', async () => {
    const popups = recordPopups();
    try {
      handles.push(open({ mode: 'popup', url: hostedUrl() }));
      handles.push(open({ mode: 'popup', url: hostedUrl() }));
      expect(popups.windows[0]!.closed).to.equal(true);
      expect(popups.windows[1]!.closed).to.equal(false);
    } finally {
      for (const handle of handles.splice(0)) handle.close();
      popups.restore();
    }
  });

  it('a frame superseded by a popup leaves no iframe behind', () => {
    const popups = recordPopups();
    try {
      handles.push(open({ url: hostedUrl() }));
      handles.push(open({ mode: 'popup', url: hostedUrl() }));
      expect(openDialogs()).to.have.length(0);
      expect(document.querySelectorAll('iframe')).to.have.length(0);
    } finally {
      for (const handle of handles.splice(0)) handle.close();
      popups.restore();
    }
  });
});
