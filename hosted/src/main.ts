/**
 * The hosted linking page's entry: defines its elements and puts `<slk-link-page>` (views/link-page.ts) in place
 * of what the HTML holds in `<main>`: the first screen the service rendered from the same templates
 * (first-screen.ts), or the static "Loading…". The element renders that same screen within this task (the inline
 * view is read synchronously, Lit renders in microtasks), so no frame shows the swap; from then on the buttons act.
 * A server-rendered screen is taken over only once it has been painted (after-first-paint.ts); a click on it
 * before that is replayed on the script's render (early-input.ts). The page's state lives in that element
 * (link-state.ts), each screen is an element of views/, each connect method is in connect/, the session flows are
 * in session.ts.
 */
import { afterFirstPaint } from './after-first-paint.js';
import { BotCodeStep } from './connect/bot-code-step.js';
import { CredentialsStep } from './connect/credentials-step.js';
import { keepEarlyInput } from './early-input.js';
import { ExpiredScreen } from './views/expired-screen.js';
import { InvalidScreen } from './views/invalid-screen.js';
import { LinkPage } from './views/link-page.js';
import { LoadFailedScreen } from './views/load-failed-screen.js';
import { LoadingScreen } from './views/loading-screen.js';
import { NetworksScreen } from './views/networks-screen.js';
import { NotEmbeddableScreen } from './views/not-embeddable-screen.js';
import { OriginMismatchScreen } from './views/origin-mismatch-screen.js';

const app = document.getElementById('app')!;
const serverRendered = app.firstElementChild?.localName === LinkPage.tagName;

function takeOver(): void {
  // First, before the names are defined: the server's copy holds elements of the same names, which would otherwise
  // be upgraded and start a second page.
  app.replaceChildren(document.createElement(LinkPage.tagName));
  for (const element of [
    LinkPage,
    LoadingScreen,
    LoadFailedScreen,
    InvalidScreen,
    ExpiredScreen,
    OriginMismatchScreen,
    NotEmbeddableScreen,
    NetworksScreen,
    CredentialsStep,
    BotCodeStep,
  ]) {
    if (!customElements.get(element.tagName)) customElements.define(element.tagName, element);
  }
}

if (serverRendered) {
  const earlyInput = keepEarlyInput(app);
  void afterFirstPaint().then(() => {
    earlyInput.beforeTakeOver();
    takeOver();
    // The render above finishes in microtasks; the replay comes after it.
    window.setTimeout(() => earlyInput.replay(), 0);
  });
} else {
  takeOver();
}
