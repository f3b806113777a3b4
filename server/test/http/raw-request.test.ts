/**
 * Reading a request on the raw path (core/http/raw-request.ts) never hangs: a client that goes away in the middle
 * of its body, or before the route reads it, ends the read with an error (answered as the Hono path answers an
 * aborted body) instead of a wait for an `end` that will not come. Real HTTP on loopback.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { readJsonBody } from '../../src/core/http/raw-request.js';

describe('reading a body on the raw path', { timeout: 20_000 }, () => {
  let server: Server;
  let port = 0;
  /** Each request the server receives, in order; the test decides when its body is read. */
  const arrivals: ((incoming: IncomingMessage) => void)[] = [];

  before(async () => {
    server = createServer((incoming, outgoing) => {
      arrivals.shift()?.(incoming);
      incoming.on('close', () => outgoing.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const nextRequest = () => new Promise<IncomingMessage>((resolve) => arrivals.push(resolve));
  const sendPartialBody = (): Socket => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write('POST / HTTP/1.1\r\nHost: a.test:8080\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"locale":');
    });
    socket.on('error', () => {});
    return socket;
  };

  it('rejects when the client goes away mid-body', async () => {
    const arrived = nextRequest();
    const socket = sendPartialBody();
    const incoming = await arrived;
    const reading = readJsonBody(incoming, 16 * 1024, 'link session');
    socket.destroy();
    await assert.rejects(reading);
  });

  it('rejects at once when the client went away before the body was read', async () => {
    const arrived = nextRequest();
    const socket = sendPartialBody();
    const incoming = await arrived;
    const closed = new Promise((resolve) => incoming.once('close', resolve));
    socket.destroy();
    await closed;
    await assert.rejects(readJsonBody(incoming, 16 * 1024, 'link session'));
  });

  it('reads a whole body as a JSON object, and answers a bad one with the envelope error', async () => {
    const answers: unknown[] = [];
    for (const body of ['{"locale":"de"}', '{"locale":']) {
      const arrived = nextRequest();
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST / HTTP/1.1\r\nHost: a.test:8080\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
      });
      socket.on('error', () => {});
      const incoming = await arrived;
      answers.push(await readJsonBody(incoming, 16 * 1024, 'link session').catch((error: { toEnvelope(): unknown }) => error.toEnvelope()));
      socket.destroy();
    }
    assert.deepEqual(answers, [
      { locale: 'de' },
      { status: 'error', action: 'link session', code: 101, message: 'The request body is not valid JSON.' },
    ]);
  });
});
