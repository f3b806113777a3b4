/**
 * @module
 * Package root: the widget (no side effects; import `social-link-kit/define.js` to register the elements), the
 * protocol schemas and the API client.
 */
export * from './widget/index.js';
export * from './protocol/index.js';
export * from './client/index.js';
