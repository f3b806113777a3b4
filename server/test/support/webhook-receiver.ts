/**
 * Test helper: a real HTTPS webhook receiver on loopback with a self-signed certificate (selfsigned), whose
 * PEM is written to a file the service is told to trust through `WEBHOOK_CA_FILE`. The certificate is valid for
 * 127.0.0.1 and for the names `localhost` and `hooks.test` (a name tests make resolve to loopback themselves).
 * Modes: `ok` answers 200, `error` answers 500, `hold` keeps the request open without answering, `trickle`
 * answers 200 and then sends a byte of body every 50 ms for as long as the sender keeps the connection.
 * It can be stopped and started again on the same port (a receiver that is down, then up).
 * `serviceEnv` is what a test service needs to deliver here: the CA, and private (loopback) targets allowed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface ReceivedWebhook {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Request path and query. */
  path: string;
  /** The TLS SNI name the sender gave, or null (none is sent for an IP address). */
  servername: string | null;
  /** The answer given: 200, 500, or null while held. */
  answeredWith: number | null;
  /** True once the connection of this request has closed (seen in `trickle` mode). */
  closed: boolean;
}

export type ReceiverMode = 'ok' | 'error' | 'hold' | 'trickle';

export async function startWebhookReceiver() {
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
          { type: 2, value: 'hooks.test' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'slk-receiver-'));
  const caFile = join(dir, 'receiver-cert.pem');
  writeFileSync(caFile, pems.cert);

  let mode: ReceiverMode = 'ok';
  const received: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer({ key: pems.private, cert: pems.cert }, (request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const entry: ReceivedWebhook = {
            headers: request.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            path: request.url ?? '',
            servername: ((request.socket as TLSSocket).servername as string | false | undefined) || null,
            answeredWith: null,
            closed: false,
          };
          received.push(entry);
          response.on('close', () => {
            entry.closed = true;
            for (const wake of [...waiters]) wake();
          });
          if (mode === 'trickle') {
            entry.answeredWith = 200;
            response.writeHead(200, { 'Content-Type': 'text/plain' });
            const drip = setInterval(() => response.write('.'), 50);
            response.on('close', () => clearInterval(drip));
          } else if (mode !== 'hold') {
            entry.answeredWith = mode === 'ok' ? 200 : 500;
            response.writeHead(entry.answeredWith, { 'Content-Type': 'text/plain' }).end(mode);
          }
          for (const wake of [...waiters]) wake();
        });
      });
      s.on('connection', (socket: Socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        port = (s.address() as AddressInfo).port;
        server = s;
        resolve();
      });
    });

  await listen();

  return {
    caFile,
    get url() {
      return `https://127.0.0.1:${port}/hooks/social`;
    },
    get port() {
      return port;
    },
    serviceEnv: { WEBHOOK_CA_FILE: caFile, WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' } as NodeJS.ProcessEnv,
    received,
    setMode(next: ReceiverMode) {
      mode = next;
    },
    /** Resolves with the first received request (past or future) that matches, or rejects after `timeoutMs`. */
    waitFor(match: (webhook: ReceivedWebhook) => boolean, timeoutMs = 10_000): Promise<ReceivedWebhook> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = received.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching webhook within ${timeoutMs} ms (received ${received.length})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    /** Stops listening and drops every open connection (held requests included). */
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    /** Listens again on the same port. */
    start: listen,
    async close() {
      await this.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

/** Polls `read` until `done` holds; for state that has no event to await (outbox rows). */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
