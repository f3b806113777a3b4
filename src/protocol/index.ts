export * from './networks.js';
export * from './error-codes.js';
export * from './errors.js';
export * from './origin.js';
export * from './messages.js';
export * from './resources.js';
export * from './webhooks.js';
