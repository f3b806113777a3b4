/**
 * The access line made field by field (json-log.ts `accessLogLine`) is byte for byte the line `jsonLogLine` makes
 * from the same fields, redaction included: compared on every route pattern the service mounts, odd patterns and
 * methods, request ids holding each secret shape, and many random ids and times.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { accessLogLine, jsonLogLine, structuredLog } from '../../src/core/observability/json-log.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ID_CHARACTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._:-';
const SHAPED_IDS = [
  `sk_${'a'.repeat(30)}`,
  `pk_live_${'Z9'.repeat(15)}`,
  'bot123456:abcdefABCDEF_-',
  `7134528890:${'x'.repeat(35)}`,
  'eyJhbGciOi.eyJzdWIiOiIx.c2lnbmF0dXJl',
  'A'.repeat(40),
  `${'b'.repeat(39)}.${'c'.repeat(45)}`,
  'edge-42.a:b',
  'x',
];

describe('access line', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('equals jsonLogLine on every mounted route, odd routes and methods, and many request ids', () => {
    const random = generator(17);
    const routes = [
      ...new Set(svc.routes.map((route) => route.path)),
      '(unmatched)',
      '/*',
      '/say/"quoted"\\slash',
      '/line\u2028separator',
      `/secret/sk_${'q'.repeat(25)}`,
      `/run/${'r'.repeat(45)}`,
    ];
    assert.ok(routes.length > 20, 'the service mounts its routes');
    const methods = ['GET', 'POST', 'DELETE', 'PATCH', 'M-SEARCH'];
    const ids = [...SHAPED_IDS, 'has space"and{json}', 'tab\there', randomUUID()];
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 128);
      let id = '';
      for (let j = 0; j < length; j++) id += ID_CHARACTERS[Math.floor(random() * ID_CHARACTERS.length)];
      ids.push(id);
    }
    let compared = 0;
    ids.forEach((requestId, i) => {
      const route = routes[i % routes.length]!;
      const method = methods[i % methods.length]!;
      const status = [200, 401, 404, 500][i % 4]!;
      const level = status >= 500 ? 'error' : 'info';
      const ms = i % 7;
      const now = Date.parse('2026-11-24T06:00:00Z') + i * 997;
      const expected = jsonLogLine(level, 'request', { requestId, method, route, status, ms }, now);
      assert.equal(accessLogLine(level, requestId, method, route, status, ms, now), expected, `id ${requestId} on ${method} ${route}`);
      compared++;
    });
    assert.equal(compared, ids.length);
    assert.match(accessLogLine('info', SHAPED_IDS[0]!, 'GET', '/x', 200, 1), /"requestId":"sk_\[redacted\]"/);
  });

  it('passes through the structured sink unchanged, as a line jsonLogLine made', () => {
    const written: string[] = [];
    const sink = structuredLog((line) => written.push(line));
    const line = accessLogLine('info', 'edge-1', 'GET', '/api/user', 200, 3);
    sink(line);
    assert.deepEqual(written, [line]);
    assert.deepEqual(JSON.parse(line).requestId, 'edge-1');
  });
});
