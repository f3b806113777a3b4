/**
 * @module
 * `social-link-kit/react`: `useSocialLink()` and `<social-link-button>` typed in JSX. React (19 or later) is a peer
 * dependency of this entry only; the rest of the package has no React in it.
 */
export { useSocialLink, type SocialLink, type SocialLinkState, type UseSocialLinkOptions } from './use-social-link.js';
export type { SocialLinkButtonProps } from './social-link-button-jsx.js';
