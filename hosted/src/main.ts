/**
 * The hosted linking page's start-up: takes the link credential, shows the session (inlined in the HTML on a first
 * load, else read from the API), tells the integrator's page it is ready, and starts the countdown, the periodic
 * session read and the Escape key. State lives in state.ts, the screens in views/, each connect method in
 * connect/, the session flows in session.ts.
 */
import { render } from 'lit';
import { ORIGIN_MISMATCH_REASON, type OriginMismatchNotice } from '../../src/protocol/constants.js';
import { ErrorCode } from '../../src/protocol/error-codes.js';
import { fitFrameToContent } from './frame-size.js';
import { createMessenger } from './integrator-messenger.js';
import { createLinkApi } from './link-api.js';
import { forgetLinkCredential, rememberSessionId, takeLinkCredential } from './link-credential.js';
import { takeInlineSessionView } from './inline-view.js';
import { schemas } from './schemas.js';
import { finish, loadView, noticeOutOfBandLinks, showView, tick } from './session.js';
import { page, setRenderer, update } from './state.js';
import { pageTemplate } from './views/page.js';

/** How often the page re-reads the session while idle, to see links and revocations made elsewhere. */
const REVALIDATE_MS = 5000;

const root = document.getElementById('app')!;
const announcer = document.getElementById('announcer')!;

// The static "Loading…" placeholder of index.html is not lit's: clear it once so render() owns the container.
let firstRender = true;
setRenderer(() => {
  if (firstRender) root.replaceChildren();
  firstRender = false;
  render(pageTemplate(), root);
});

async function start() {
  const credential = takeLinkCredential();
  if (!credential) {
    page.screen = { kind: 'invalid', expired: false };
    return update();
  }
  page.api = createLinkApi(credential);
  // On a first load the HTML already holds the view: render it now instead of asking the API for it.
  const inline = takeInlineSessionView();
  if (inline?.status === 'origin_mismatch') return showOriginMismatch(inline);
  const view = inline ? showView(inline) : await loadView();
  // The schemas (zod) are needed only from the first API answer or sign-in result on: load them now, off the
  // first render.
  schemas().catch(() => {}); // a failed load is retried by the first call that needs it
  if (!view) return;
  rememberSessionId(view.sessionId);
  page.messenger = createMessenger(view.sessionId, view.origin, page.mode);
  page.messenger.ready();
  if (page.mode === 'frame') fitFrameToContent(page.messenger, root);
  noticeOutOfBandLinks(view);
  window.setInterval(() => tick(announcer), 1000);
  window.setInterval(() => {
    if (!page.ended && !document.hidden && page.busyPlatform === null) void loadView();
  }, REVALIDATE_MS);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && page.mode !== 'direct') finish('escape');
  });
}

/**
 * Opened by a widget on an origin the session does not name: no linking here. The notice, and one coded error to
 * that origin (the only one that can hear it), so its widget stops waiting at once.
 */
function showOriginMismatch(notice: OriginMismatchNotice): void {
  forgetLinkCredential();
  page.ended = true;
  page.screen = { kind: 'mismatch' };
  update();
  const messenger = createMessenger(notice.sessionId, notice.opener, page.mode);
  if (page.mode === 'frame') fitFrameToContent(messenger, root);
  messenger.error(ErrorCode.originInvalid, 'The link was opened from an origin its session does not name.', undefined, ORIGIN_MISMATCH_REASON);
}

void start();
