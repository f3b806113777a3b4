/**
 * @module
 * `useSocialLink()`: the widget's `open()` as a React hook. It opens the hosted linking page in any mode (frame,
 * popup, direct), tracks the link's state and what was linked, and forwards every widget callback. The options are
 * read when `open()` is called, so inline callbacks never go stale; unmounting closes a link that is still open.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { open as openLink } from '../widget/open.js';
import type { LinkEventDetail, LinkHandle, OpenOptions } from '../widget/link-options.js';
import type { SocialLinkErrorDetail } from '../widget/events/social-link-error.js';
import type { Network } from '../protocol/networks.js';

/**
 * - `idle`: nothing open (before the first `open()`, or after a link closed without an outcome)
 * - `opening`: `open()` was called; the session URL is being fetched or the hosted page is loading
 * - `open`: the hosted page announced the session (`ready`)
 * - `linked`: at least one account was linked by the last `open()`
 * - `error` / `cancelled`: the last `open()` ended that way without linking anything
 */
export type SocialLinkState = 'idle' | 'opening' | 'open' | 'linked' | 'error' | 'cancelled';

/** `open()`'s options (see the widget's `OpenOptions`); `eventTarget` is the widget's default, `document`. */
export type UseSocialLinkOptions = Omit<OpenOptions, 'eventTarget'>;

export interface SocialLink {
  /** Opens the link; call it in the click handler, before any `await` (popup mode opens its window at once). */
  open(overrides?: Partial<UseSocialLinkOptions>): LinkHandle;
  /** Closes the open link, if any (no event fires). */
  close(): void;
  state: SocialLinkState;
  /** The session id once known. */
  sessionId: string | null;
  /** The networks linked by the last `open()`, in order. */
  linked: Network[];
  /** The last event of the last `open()`, tagged with its `type`. */
  lastEvent: LinkEventDetail | null;
  /** The last error of the last `open()` (a failed connection attempt or a widget problem such as `popup_blocked`). */
  error: SocialLinkErrorDetail | null;
}

interface LinkView {
  state: SocialLinkState;
  sessionId: string | null;
  linked: Network[];
  lastEvent: LinkEventDetail | null;
  error: SocialLinkErrorDetail | null;
}

const IDLE: LinkView = { state: 'idle', sessionId: null, linked: [], lastEvent: null, error: null };

/** The view after one more event of the current link. */
function afterEvent(view: LinkView, event: LinkEventDetail): LinkView {
  const next = { ...view, lastEvent: event, sessionId: event.sessionId ?? view.sessionId };
  switch (event.type) {
    case 'ready':
      return { ...next, state: view.state === 'linked' ? 'linked' : 'open' };
    case 'success':
      return { ...next, state: 'linked', linked: view.linked.includes(event.platform) ? view.linked : [...view.linked, event.platform] };
    case 'error':
      return { ...next, state: view.linked.length > 0 ? 'linked' : 'error', error: event };
    case 'cancel':
      return { ...next, state: view.linked.length > 0 ? 'linked' : view.state === 'error' ? 'error' : 'cancelled' };
    case 'disconnect':
      return { ...next, linked: view.linked.filter((platform) => platform !== event.platform) };
  }
}

export function useSocialLink(options: UseSocialLinkOptions = {}): SocialLink {
  const [view, setView] = useState<LinkView>(IDLE);
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const handleRef = useRef<LinkHandle | null>(null);
  /** Which `open()` is current: its events may arrive before `openLink` returns (a URL refused at once). */
  const currentRun = useRef<object | null>(null);

  const open = useCallback((overrides: Partial<UseSocialLinkOptions> = {}) => {
    const chosen = { ...optionsRef.current, ...overrides };
    const run = {};
    currentRun.current = run;
    setView({ ...IDLE, state: 'opening' });
    const handle = openLink({
      ...chosen,
      onEvent: (event) => {
        // A superseded link may still report its last events: only the current one changes the state.
        if (currentRun.current === run) setView((view) => afterEvent(view, event));
        chosen.onEvent?.(event);
      },
    });
    handleRef.current = handle;
    void handle.done.then(() => {
      if (currentRun.current !== run) return;
      handleRef.current = null;
      setView((view) => (view.state === 'opening' || view.state === 'open' ? { ...view, state: 'idle' } : view));
    });
    return handle;
  }, []);

  const close = useCallback(() => handleRef.current?.close(), []);

  // Unmounting closes the link this component opened.
  useEffect(() => () => handleRef.current?.close(), []);

  return { open, close, ...view };
}
