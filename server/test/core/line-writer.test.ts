/**
 * The log sink batches the lines of one event-loop turn into one write, keeps their order, and flush() writes
 * what is pending at once (as the process's exit does).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lineWriter } from '../../src/core/observability/line-writer.js';

describe('log line writer', () => {
  it('writes the lines of one turn in one write, in order', async () => {
    const writes: string[] = [];
    const log = lineWriter({ write: (text: string) => writes.push(text) });
    log('{"a":1}');
    log('{"b":2}');
    assert.deepEqual(writes, [], 'nothing is written before the turn ends');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['{"a":1}\n{"b":2}\n']);
    log('{"c":3}');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['{"a":1}\n{"b":2}\n', '{"c":3}\n']);
  });

  it('flush() writes pending lines at once, and only once', async () => {
    const writes: string[] = [];
    const log = lineWriter({ write: (text: string) => writes.push(text) });
    log('{"last":true}');
    log.flush();
    assert.deepEqual(writes, ['{"last":true}\n']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(writes, ['{"last":true}\n']);
  });
});
