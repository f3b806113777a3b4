export { createLinkClient, type LinkClient, type LinkClientOptions, type CallOptions } from './link-client.js';
export { LinkApiError, CLIENT_ERROR_CODES } from './errors.js';
