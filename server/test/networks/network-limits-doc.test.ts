/**
 * docs/network-limits.md is generated from the catalogue and the capabilities (scripts/network-limits-table.ts):
 * this fails when a limit changed in code and the file was not written again.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { NETWORKS } from '@social-link-kit/protocol';
import { NETWORK_LIMITS_FILE, renderNetworkLimitsTable } from '../../../scripts/network-limits-table.js';

describe('docs/network-limits.md', () => {
  const rendered = renderNetworkLimitsTable();

  it('matches what the catalogue and capabilities render (run scripts/write-network-limits.ts after a change)', () => {
    const onDisk = readFileSync(new URL(`../../../${NETWORK_LIMITS_FILE}`, import.meta.url), 'utf8');
    assert.equal(onDisk, rendered, `${NETWORK_LIMITS_FILE} is out of date: node --import tsx scripts/write-network-limits.ts`);
  });

  it('has one row per network of the catalogue, with its text limit', () => {
    const rows = rendered.split('\n').filter((line) => /^\| .+ \(`[a-z]+`\) \|/.test(line));
    assert.deepEqual(rows.map((row) => /\(`([a-z]+)`\)/.exec(row)?.[1]), [...NETWORKS]);
    assert.match(rows.find((row) => row.includes('(`twitter`)'))!, /\| 280 weighted characters/);
    assert.match(rows.find((row) => row.includes('(`gmb`)'))!, /\| 1,500 characters \|/);
  });
});
