export * from './analytics-api.js';
