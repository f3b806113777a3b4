/**
 * Each network's folder links it the way the protocol's catalogue says (the hosted page picks its connect UI from
 * the catalogue, the service answers from the folder); the compiler already refuses a network without a folder.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NETWORKS, connectMethodOf } from '@social-link-kit/protocol';
import { NETWORKS as NETWORK_MODULES } from '../../src/networks/index.js';

describe('network folders', () => {
  it('link every network with the connect method of the catalogue', () => {
    for (const network of NETWORKS) assert.equal(NETWORK_MODULES[network].link.method, connectMethodOf(network), network);
  });
});
