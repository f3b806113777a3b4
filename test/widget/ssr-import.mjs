// SSR safety: importing the package root and the widget entry in Node (no window, no document) must not throw
// and must not register elements; only define.ts has side effects. Run: node --import tsx test/widget/ssr-import.mjs
import assert from 'node:assert/strict';

assert.equal(typeof globalThis.window, 'undefined');
const root = await import('../../src/index.ts');
const widget = await import('../../src/widget/index.ts');
assert.equal(typeof root.open, 'function');
assert.equal(typeof widget.SocialLinkButton, 'function');
assert.equal(typeof root.parseLinkMessage, 'function');
// Lit's Node build provides a customElements shim; nothing may be registered by a plain import.
assert.equal(globalThis.customElements?.get?.('social-link-button'), undefined);
assert.equal(typeof globalThis.window, 'undefined');
console.log('ssr-import: package root and widget import in Node without a DOM, no elements defined');
