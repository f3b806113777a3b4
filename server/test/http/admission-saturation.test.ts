/**
 * The admission gate paces creates only while the loop is saturated (core/http/admission.ts `SATURATED`): other
 * requests arriving beside a loop with room to spare wait behind nothing, so creates run as they come. The gate
 * alone on a clock the test moves (a unit test: the service-level behaviour is post-admission.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdmissionGate, SATURATED, type AdmissionClock } from '../../src/core/http/admission.js';

/** A clock whose time, loop busy time and CPU time move only when told. */
function movedClock() {
  const at = { now: 0, busy: 0, cpu: 0 };
  const clock: AdmissionClock = { now: () => at.now, loopBusyMs: () => at.busy, cpuMs: () => at.cpu };
  return {
    clock,
    /** `ms` pass, of which the loop is busy `busyShare`, all of it CPU. */
    pass(ms: number, busyShare: number) {
      at.now += ms;
      at.busy += ms * busyShare;
      at.cpu += ms * busyShare;
    },
  };
}

/** 20 creates while another request arrived just before each: how many were admitted at once. */
function admittedAtOnce(gate: AdmissionGate, pass: (ms: number) => void): number {
  let admitted = 0;
  for (let n = 0; n < 20; n++) {
    gate.otherArrived();
    if (gate.admit('key') === null) admitted++;
    pass(1);
  }
  return admitted;
}

describe('admission only while the loop is saturated', () => {
  it('admits every create at once while other requests arrive beside an idle-enough loop', () => {
    const { clock, pass } = movedClock();
    const gate = new AdmissionGate({ share: 0.1, queueMax: 100 }, clock);
    pass(150, SATURATED / 2);
    gate.otherArrived(); // closes a window half as busy as saturated
    assert.equal(admittedAtOnce(gate, (ms) => pass(ms, SATURATED / 2)), 20);
    assert.equal(gate.waiting, 0);
  });

  it('paces creates once a window was saturated, and lets the waiting ones go when the loop has room again', { timeout: 30_000 }, async () => {
    const { clock, pass } = movedClock();
    const gate = new AdmissionGate({ share: 0.1, queueMax: 100 }, clock);
    pass(150, 1);
    gate.otherArrived(); // a saturated window
    const atOnce = admittedAtOnce(gate, (ms) => pass(ms, 1));
    assert.ok(atOnce < 20, `paced: ${atOnce} of 20 at once`);
    assert.equal(gate.waiting, 20 - atOnce);

    // The next window has room to spare: the next arrival closes it, and the gate's next wake-up (within the quiet
    // time, on the real timer) lets every waiting create go, the one just queued behind them included.
    pass(150, SATURATED / 2);
    gate.otherArrived();
    const last = gate.admit('key');
    assert.notEqual(last, null, 'a create still queues behind the ones waiting');
    await last;
    assert.equal(gate.waiting, 0, 'released once the loop was no longer saturated');
  });
});
