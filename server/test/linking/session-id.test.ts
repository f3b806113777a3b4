/**
 * Link-session ids are time-ordered (core/tokens.ts `newTimeOrderedId`, used by the create in
 * linking/routes/link-sessions.ts): the same `ls_` + 24 hex digits as before, the first 12 the creation time from
 * the service's clock, so later sessions sort after earlier ones; ids of one millisecond stay distinct.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newTimeOrderedId } from '../../src/core/tokens.js';
import { startTestService } from '../support/test-service.js';

describe('link-session ids', () => {
  it('keep the ls_ + 24 hex format, sort in creation order and differ within one millisecond', () => {
    const now = Date.UTC(2026, 10, 24, 6, 0, 0);
    const sameMillisecond = Array.from({ length: 5000 }, () => newTimeOrderedId('ls_', now));
    for (const id of sameMillisecond) assert.match(id, /^ls_[0-9a-f]{24}$/);
    assert.equal(new Set(sameMillisecond).size, sameMillisecond.length);
    assert.equal(sameMillisecond[0]!.slice(3, 15), now.toString(16).padStart(12, '0'));
    const later = [now + 1, now + 1000, now + 86_400_000].map((time) => newTimeOrderedId('ls_', time));
    for (const id of [...sameMillisecond, ...later.slice(0, -1)]) assert.ok(id < later.at(-1)!);
    assert.ok(sameMillisecond.every((id) => id < later[0]!));
  });

  it('are made from the service clock at each create', async () => {
    const svc = await startTestService();
    try {
      const first = (await svc.client.createLinkSession({})).sessionId;
      svc.clock.advance(1);
      const second = (await svc.client.createLinkSession({})).sessionId;
      assert.equal(first.slice(3, 15), (svc.clock() - 1).toString(16).padStart(12, '0'));
      assert.equal(second.slice(3, 15), svc.clock().toString(16).padStart(12, '0'));
      assert.ok(first < second);
    } finally {
      await svc.close();
    }
  });
});
