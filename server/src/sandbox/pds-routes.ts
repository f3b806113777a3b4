/**
 * @module
 * The sandbox Bluesky PDS moved to sandbox/networks/bluesky-pds.ts (it now also takes posts); this keeps the old
 * import path of its app password working.
 */
export { SANDBOX_BLUESKY_PASSWORD } from '../sandbox/networks/bluesky-pds.js';
