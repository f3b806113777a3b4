/**
 * The server-rendered first screen shows its buttons before the page script has taken it over
 * (after-first-paint.ts), and they do nothing until then. A click on one of them in that time is kept, as the
 * button's place among the screen's buttons, and replayed on the same button of the script's render, which is the
 * same markup (test/e2e/hosted/first-screen.spec.ts checks both are identical); the keyboard focus moves to it too.
 * The user's click gave the page its activation, so a sign-in window the replayed click opens is not blocked.
 */
const FOCUSABLE = 'button, a[href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

export interface EarlyInput {
  /** Call right before the script replaces the server's copy: notes where the focus is. */
  beforeTakeOver(): void;
  /** Call once the script's render is in place: focuses and clicks what the user focused and clicked. */
  replay(): void;
}

/** What a user reads on a button: a replay goes only to a button that says the same. */
const nameOf = (button: HTMLButtonElement): string => button.getAttribute('aria-label') ?? (button.textContent ?? '').trim();

export function keepEarlyInput(root: HTMLElement): EarlyInput {
  let clicked: { index: number; name: string } | null = null;
  let focused = -1;
  const buttons = () => [...root.querySelectorAll('button')];
  const onClick = (event: Event) => {
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (button && root.contains(button)) clicked = { index: buttons().indexOf(button), name: nameOf(button) };
  };
  root.addEventListener('click', onClick, true);
  return {
    beforeTakeOver() {
      root.removeEventListener('click', onClick, true);
      const active = document.activeElement;
      if (active && active !== root && root.contains(active)) focused = [...root.querySelectorAll(FOCUSABLE)].indexOf(active);
    },
    replay() {
      if (focused >= 0) root.querySelectorAll<HTMLElement>(FOCUSABLE)[focused]?.focus();
      // The script knows what the request could not tell (a popup from a tab), so a screen can differ: the same
      // button only.
      const button = clicked ? buttons()[clicked.index] : undefined;
      if (button && nameOf(button) === clicked?.name) button.click();
    },
  };
}
