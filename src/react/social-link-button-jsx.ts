/**
 * @module
 * `<social-link-button>` as a typed JSX element. React 19 sets a custom element's props as properties when the
 * element has them (so `getUrl`, `checkStatus`, `texts` and `timing` can be functions and objects) and adds a
 * listener for each `on<event-name>` prop, so `onsocial-link-success` hears the widget's `social-link-success`.
 * Import `social-link-kit/define.js` once before rendering, so the element is defined and its properties exist.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { SocialLinkButton } from '../widget/social-link-button.js';
import type { SocialLinkCancelEvent } from '../widget/events/social-link-cancel.js';
import type { SocialLinkDisconnectEvent } from '../widget/events/social-link-disconnect.js';
import type { SocialLinkErrorEvent } from '../widget/events/social-link-error.js';
import type { SocialLinkReadyEvent } from '../widget/events/social-link-ready.js';
import type { SocialLinkSuccessEvent } from '../widget/events/social-link-success.js';

/** The props of `<social-link-button>` in JSX: its properties, its attributes, and its events. */
export type SocialLinkButtonProps = DetailedHTMLProps<HTMLAttributes<SocialLinkButton>, SocialLinkButton> &
  Partial<Pick<SocialLinkButton, 'url' | 'mode' | 'keepOpen' | 'getUrl' | 'checkStatus' | 'locale' | 'texts' | 'timing'>> & {
    /** The attribute form of `keepOpen`. */
    'keep-open'?: boolean;
    'onsocial-link-ready'?: (event: SocialLinkReadyEvent) => void;
    'onsocial-link-success'?: (event: SocialLinkSuccessEvent) => void;
    'onsocial-link-error'?: (event: SocialLinkErrorEvent) => void;
    'onsocial-link-cancel'?: (event: SocialLinkCancelEvent) => void;
    'onsocial-link-disconnect'?: (event: SocialLinkDisconnectEvent) => void;
  };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'social-link-button': SocialLinkButtonProps;
    }
  }
}
