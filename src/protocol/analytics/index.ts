export * from './analytics-api.js';
export * from './automations-api.js';
