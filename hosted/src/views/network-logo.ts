/**
 * A network's mark from the sprite in the page's own HTML (assets/networks.svg, put there by hosted/vite.config.ts);
 * decorative, the name is beside it.
 */
import { html } from 'lit';
import type { Network } from '@social-link-kit/protocol/networks/catalog.js';
import { NETWORK_MARK_ID_PREFIX } from './network-logo-ids.js';

export const networkLogoTemplate = (platform: Network) =>
  html`<svg class="logo" aria-hidden="true" focusable="false" width="32" height="32"><use href="#${NETWORK_MARK_ID_PREFIX}${platform}"></use></svg>`;
