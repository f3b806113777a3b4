/**
 * The hosted linking page's entry, kept to what must run early (about 1 KB): when the HTML holds the first screen
 * the service rendered (first-screen.ts), it keeps the clicks and focus made on it (early-input.ts), waits until
 * that screen has been painted (after-first-paint.ts), and only then imports the page itself (page.ts: Lit, the
 * elements, their texts), which takes the screen over and gets the clicks replayed. The HTML names page.ts's file in
 * a `<link rel="modulepreload">` (hosted/vite.config.ts), so it is fetched at once, but evaluated only here: its
 * evaluation (about 11 ms in a fresh renderer) would otherwise run before the first frame, or between that frame
 * and the next, whenever the file arrives early. With "Loading…" in the HTML (a reload) the page starts at once.
 */
import { afterFirstPaint } from './after-first-paint.js';
import { keepEarlyInput } from './early-input.js';
import { TAG } from './views/tag-names.js';

const app = document.getElementById('app')!;

if (app.firstElementChild?.localName === TAG.linkPage) {
  const earlyInput = keepEarlyInput(app);
  void afterFirstPaint()
    .then(() => import('./page.js'))
    .then(({ takeOver }) => {
      earlyInput.beforeTakeOver();
      takeOver(app);
      // The render above finishes in microtasks; the replay comes after it.
      window.setTimeout(() => earlyInput.replay(), 0);
    });
} else {
  void import('./page.js').then(({ takeOver }) => takeOver(app));
}
