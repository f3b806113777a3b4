/**
 * @module
 * Requests Node's HTTP parser refuses before any route sees them (oversized headers, bad header characters, a
 * malformed request line) get the spec's envelope too, instead of Node's bare "400 Bad Request".
 */
import type { Socket } from 'node:net';
import { ErrorCode } from '@social-link-kit/protocol';

const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large.'],
  HPE_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive.'],
};
const DEFAULT_ANSWER: [number, string, string] = [400, 'Bad Request', 'The request could not be parsed (request line or header characters).'];

export function answerParserErrorsWithEnvelope(server: { on(event: 'clientError', listener: (error: NodeJS.ErrnoException, socket: Socket) => void): unknown }): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A reset or half-written connection has no one left to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, text, message] = ANSWERS[error.code ?? ''] ?? DEFAULT_ANSWER;
    const body = JSON.stringify({ status: 'error', action: 'request', code: ErrorCode.badRequest, message });
    socket.end(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
