/**
 * The session view the service put into this page's HTML on its first load (a `<script type="application/json">`,
 * never run), so the first screen needs no API call. Read once and removed: later reads go to the API.
 */
import { INLINE_SESSION_VIEW_ID, SessionView } from '../../src/protocol/hosted-api.js';

export function takeInlineSessionView(): SessionView | null {
  const element = document.getElementById(INLINE_SESSION_VIEW_ID);
  if (!element) return null;
  element.remove();
  try {
    const parsed = SessionView.safeParse(JSON.parse(element.textContent ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
