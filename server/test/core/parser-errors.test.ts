/**
 * Requests Node's HTTP parser refuses (oversized headers, control characters in a header, a broken request line),
 * sent over a raw socket to the real service: each gets the spec's envelope with a 4xx.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';

function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function parse(answer: string) {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]), json: JSON.parse(body!) as Record<string, unknown> };
}

describe("Node's parser errors", () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  it('answers oversized headers with 431 and the envelope', async () => {
    const { status, json } = parse(await raw(svc.url, `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
    assert.equal(status, 431);
    assert.deepEqual(Object.keys(json).sort(), ['action', 'code', 'message', 'status']);
    assert.equal(json.code, 101);
  });

  it('answers a control character in a header, or a broken request line, with 400 and the envelope', async () => {
    for (const request of ['GET /health HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n', 'NOT A REQUEST LINE\r\n\r\n', 'GET /health HTTP/1.1\r\nBad Header Name: x\r\n\r\n']) {
      const { status, json } = parse(await raw(svc.url, request));
      assert.equal(status, 400, JSON.stringify(request));
      assert.equal(json.status, 'error');
      assert.equal(json.code, 101);
    }
  });
});
