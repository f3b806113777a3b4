/**
 * @module
 * Entry of the single-file script-tag build (dist/cdn/social-link.js): registers the elements and exports the
 * widget API, so both `<script type="module" src>` and `import { open } from '…/social-link.js'` work.
 */
import './define.js';

export * from './index.js';
