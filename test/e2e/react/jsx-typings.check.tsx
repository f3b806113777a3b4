// Type-level test of `<social-link-button>` in JSX (checked by `npm run typecheck`, tsconfig.node.json): each
// expected-error directive below fails the check if the typings stop catching the mistake under it.
import type { SocialLinkButtonProps } from 'social-link-kit/react';

export const typed = (
  <social-link-button mode="popup" keep-open getUrl={() => Promise.resolve('https://link.example.com/link?session=x')} onsocial-link-cancel={(event) => console.info(event.detail.reason)} />
);
// @ts-expect-error: mode is 'frame' | 'popup' | 'direct'
export const badMode = <social-link-button mode={42} />;
// @ts-expect-error: the success detail has no such field
export const badDetail = <social-link-button onsocial-link-success={(event) => event.detail.nope} />;
// @ts-expect-error: getUrl resolves to a URL or {url, sessionId}
export const badGetUrl: SocialLinkButtonProps = { getUrl: () => Promise.resolve(1) };
