/**
 * The hosted linking page's entry: defines its elements and puts `<slk-link-page>` (views/link-page.ts) in place
 * of the static "Loading…" of index.html. The page's state lives in that element (link-state.ts), each screen is
 * an element of views/, each connect method is in connect/, the session flows are in session.ts.
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

document.getElementById('app')!.replaceChildren(document.createElement(LinkPage.tagName));
