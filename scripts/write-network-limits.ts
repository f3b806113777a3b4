/**
 * Writes docs/network-limits.md from the catalogue and the capabilities (network-limits-table.ts). Run after
 * changing a network's limits: `node --import tsx scripts/write-network-limits.ts`.
 */
import { writeFileSync } from 'node:fs';
import { NETWORK_LIMITS_FILE, renderNetworkLimitsTable } from './network-limits-table.js';

writeFileSync(new URL(`../${NETWORK_LIMITS_FILE}`, import.meta.url), renderNetworkLimitsTable());
console.log(`wrote ${NETWORK_LIMITS_FILE}`);
