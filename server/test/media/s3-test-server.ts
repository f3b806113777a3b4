/**
 * @module
 * A minimal S3-compatible server on loopback for the media store's tests (the "network sandbox" exception: the
 * one Node S3 server in the registry, s3rver, accepts any SigV4 signature without checking it). Path-style
 * `PUT`, `GET` and `HEAD` of `/{bucket}/{key}`, in memory. Every request must be signed, and the signature is
 * recomputed with the `aws4` package, an implementation independent of the service's own signer, from the request
 * as received: header signatures (`Authorization: AWS4-HMAC-SHA256 …`, with `x-amz-content-sha256` checked against
 * the body and the date within 15 minutes) and presigned query signatures (`X-Amz-*`, expired after
 * `X-Amz-Expires`). Errors are S3's XML bodies with S3's codes and statuses.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import aws4 from 'aws4';

export interface S3TestServer {
  endpoint: string;
  objects: Map<string, { bytes: Buffer; contentType: string }>;
  /** Every request as `METHOD path status`, in order. */
  requests: string[];
  /** Answer the next PUTs with this status (e.g. 503) instead of storing. */
  failPutsWith: number | null;
  close(): Promise<void>;
}

export interface S3TestServerOptions {
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The server's clock (signature dates and expiry are judged against it). */
  now: () => number;
}

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const SKEW_MS = 15 * 60_000;

function parseAmzDate(value: string | undefined): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) throw new S3Error(403, 'AccessDenied', 'X-Amz-Date must be in the ISO8601 basic format.');
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!);
}

export async function startS3TestServer(options: S3TestServerOptions): Promise<S3TestServer> {
  const objects = new Map<string, { bytes: Buffer; contentType: string }>();
  const credentials = { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey };
  const state: S3TestServer = { endpoint: '', objects, requests: [], failPutsWith: null, close: async () => {} };

  function verify(request: IncomingMessage, url: URL, body: Buffer): void {
    const host = request.headers.host ?? '';
    if (url.searchParams.has('X-Amz-Signature')) {
      const given = url.searchParams.get('X-Amz-Signature')!;
      const credential = url.searchParams.get('X-Amz-Credential') ?? '';
      if (credential.split('/')[0] !== options.accessKeyId) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
      const signedAt = parseAmzDate(url.searchParams.get('X-Amz-Date') ?? undefined);
      const expires = Number(url.searchParams.get('X-Amz-Expires'));
      if (!Number.isInteger(expires) || expires < 1 || expires > 604_800) throw new S3Error(400, 'AuthorizationQueryParametersError', 'X-Amz-Expires must be 1..604800.');
      if (options.now() > signedAt + expires * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
      const unsigned = new URLSearchParams(url.searchParams);
      unsigned.delete('X-Amz-Signature');
      const region = credential.split('/')[2] ?? '';
      const expected = aws4.sign({ method: request.method, host, path: `${url.pathname}?${unsigned}`, service: 's3', region, signQuery: true, headers: { Host: host } }, credentials);
      const expectedSignature = new URL(`http://x${expected.path}`).searchParams.get('X-Amz-Signature');
      if (region !== options.region || expectedSignature !== given) throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
      return;
    }
    const authorization = request.headers.authorization ?? '';
    const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
    if (!match) throw new S3Error(403, 'AccessDenied', 'Anonymous access is forbidden for this operation.');
    const [, accessKeyId, , region, signedHeaders, given] = match;
    if (accessKeyId !== options.accessKeyId) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
    const signedAt = parseAmzDate(request.headers['x-amz-date'] as string | undefined);
    if (Math.abs(options.now() - signedAt) > SKEW_MS) throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
    const payloadHash = request.headers['x-amz-content-sha256'];
    if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== createHash('sha256').update(body).digest('hex')) {
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', 'The provided x-amz-content-sha256 header does not match what was computed.');
    }
    const names = signedHeaders!.split(';');
    if (!names.includes('host') || !names.includes('x-amz-date')) throw new S3Error(403, 'AccessDenied', 'host and x-amz-date must be signed.');
    const headers: Record<string, string> = {};
    for (const name of names) headers[name] = String(request.headers[name] ?? '');
    const expected = aws4.sign({ method: request.method, host, path: `${url.pathname}${url.search}`, service: 's3', region, headers }, credentials);
    const expectedSignature = /Signature=([0-9a-f]{64})/.exec(String(expected.headers?.Authorization))?.[1];
    if (region !== options.region || expectedSignature !== given) throw new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }

  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', 'http://s3.test');
    const answer = (status: number, headers: Record<string, string> = {}, payload?: Buffer | string) => {
      state.requests.push(`${request.method} ${url.pathname} ${status}`);
      response.writeHead(status, headers);
      response.end(request.method === 'HEAD' ? undefined : payload);
    };
    try {
      verify(request, url, body);
      const [, bucket, ...keyParts] = url.pathname.split('/');
      if (decodeURIComponent(bucket ?? '') !== options.bucket) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.');
      const key = decodeURIComponent(keyParts.join('/'));
      if (request.method === 'PUT') {
        if (state.failPutsWith) throw new S3Error(state.failPutsWith, 'ServiceUnavailable', 'Please reduce your request rate.');
        objects.set(key, { bytes: body, contentType: request.headers['content-type'] ?? 'binary/octet-stream' });
        return answer(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      }
      if (request.method === 'GET' || request.method === 'HEAD') {
        const object = objects.get(key);
        if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
        return answer(200, { 'content-type': object.contentType, 'content-length': String(object.bytes.length) }, object.bytes);
      }
      throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    } catch (error) {
      const s3 = error instanceof S3Error ? error : new S3Error(500, 'InternalError', String(error));
      answer(s3.status, { 'content-type': 'application/xml' }, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${s3.code}</Code><Message>${s3.message}</Message></Error>`);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () => new Promise((resolve) => server.close(() => resolve()));
  return state;
}
