/**
 * The seam between a network module and its sandbox fake (issue 25): the service calls an account linked on the
 * sandbox at its module's `api.sandboxPath`, and the sandbox package mounts that network's fake under `/sandbox`
 * at `SANDBOX_NETWORK_FAKES[network].mount`. Every module's sandbox path must lie under its own fake's mount, so a
 * network added with a fake at another address fails here before any journey does.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NETWORKS as NETWORK_IDS } from '@social-link-kit/protocol';
import { SANDBOX_NETWORK_FAKES } from '@social-link-kit/sandbox/networks/routes.js';
import { NETWORKS } from '../../src/networks/index.js';

/** True when `path` is `base` itself or lies below it. */
const under = (path: string, base: string) => path === base || path.startsWith(base.endsWith('/') ? base : `${base}/`);

test("every network's sandbox path lies under its own fake's mount", () => {
  for (const network of NETWORK_IDS) {
    const { mount } = SANDBOX_NETWORK_FAKES[network];
    const base = mount === '/' ? '/sandbox' : `/sandbox${mount}`;
    assert.ok(under(NETWORKS[network].api.sandboxPath, base), `${network}: ${NETWORKS[network].api.sandboxPath} is not under ${base}`);
  }
});

test('the check can fail: a path beside a mount is not under it', () => {
  assert.equal(under('/sandbox/facebookx', '/sandbox/facebook'), false);
  assert.equal(under('/sandbox/facebook/v23.0', '/sandbox/facebook'), true);
});
