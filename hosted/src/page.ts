/**
 * The hosted linking page itself, imported by the entry (main.ts) once the first screen has been painted: defines
 * the page's elements and puts `<slk-link-page>` (views/link-page.ts) in place of what the HTML holds in `<main>`:
 * the first screen the service rendered from the same templates (first-screen.ts), or the static "Loading…". The
 * element renders that same screen within this task (the inline view is read synchronously, Lit renders in
 * microtasks), so no frame shows the swap; from then on the buttons act. The page's state lives in that element
 * (link-state.ts), each screen is an element of views/, each connect method is in connect/, the session flows are
 * in session.ts.
 */
import { BotCodeStep } from './connect/bot-code-step.js';
import { CredentialsStep } from './connect/credentials-step.js';
import { ExpiredScreen } from './views/expired-screen.js';
import { InvalidScreen } from './views/invalid-screen.js';
import { LinkPage } from './views/link-page.js';
import { LoadFailedScreen } from './views/load-failed-screen.js';
import { LoadingScreen } from './views/loading-screen.js';
import { NetworksScreen } from './views/networks-screen.js';
import { NotEmbeddableScreen } from './views/not-embeddable-screen.js';
import { OriginMismatchScreen } from './views/origin-mismatch-screen.js';

export function takeOver(app: HTMLElement): void {
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
