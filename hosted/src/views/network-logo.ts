/** A network's mark from the sprite shipped with the page (assets/networks.svg); decorative, the name is beside it. */
import { html } from 'lit';
import type { Network } from '../../../src/protocol/networks/catalog.js';
import spriteUrl from '../assets/networks.svg?url';

export const networkLogoTemplate = (platform: Network) =>
  html`<svg class="logo" aria-hidden="true" focusable="false" width="32" height="32"><use href="${spriteUrl}#${platform}"></use></svg>`;
