export * from './post-request.js';
export * from './post-response.js';
export * from './post-state.js';
export * from './history.js';
export * from './post-api.js';
export * from './youtube-channel.js';
export * from './post-attempts.js';
