/**
 * @module
 * AWS Signature Version 4 for S3-compatible stores, written out by hand (no SDK: two operations need ~60 lines).
 * `signS3Request` adds the `Authorization`, `x-amz-date` and `x-amz-content-sha256` headers of a request;
 * `presignS3Url` gives a GET address whose query carries the signature and its lifetime (`X-Amz-Expires`), which is
 * what networks that pull media receive. Paths are path-style (`/{bucket}/{key}`), as every S3-compatible server
 * accepts. Reference: the SigV4 signing steps (canonical request → string to sign → derived key → HMAC).
 */
import { createHash, createHmac } from 'node:crypto';

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

const ALGORITHM = 'AWS4-HMAC-SHA256';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters, `/` kept in paths. */
export function encodeRfc3986(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

/** `20130524T000000Z`: the timestamp form SigV4 signs. */
export function amzDate(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/[-:]|\.\d{3}/g, '');
}

function canonicalQuery(query: Record<string, string>): string {
  return Object.keys(query)
    .map((key) => [encodeRfc3986(key), encodeRfc3986(query[key]!)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

interface Canonical {
  method: string;
  /** Already encoded path (`/bucket/key`). */
  path: string;
  query: Record<string, string>;
  /** Lower-case names → values; all of them are signed. */
  headers: Record<string, string>;
  payloadHash: string;
}

function signature(request: Canonical, credentials: S3Credentials, datetime: string): { scope: string; signedHeaders: string; signature: string } {
  const date = datetime.slice(0, 8);
  const scope = `${date}/${credentials.region}/s3/aws4_request`;
  const names = Object.keys(request.headers).sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    request.method,
    request.path,
    canonicalQuery(request.query),
    names.map((name) => `${name}:${request.headers[name]!.trim().replace(/\s+/g, ' ')}\n`).join(''),
    signedHeaders,
    request.payloadHash,
  ].join('\n');
  const stringToSign = [ALGORITHM, datetime, scope, sha256Hex(canonicalRequest)].join('\n');
  let key = hmac(`AWS4${credentials.secretAccessKey}`, date);
  for (const part of [credentials.region, 's3', 'aws4_request']) key = hmac(key, part);
  return { scope, signedHeaders, signature: createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex') };
}

/** Headers to send with the request (host is signed but sent by the HTTP client itself). */
export function signS3Request(
  input: { method: string; url: URL; headers?: Record<string, string>; payloadHash: string },
  credentials: S3Credentials,
  now: number,
): Record<string, string> {
  const datetime = amzDate(now);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = input.url.host;
  headers['x-amz-date'] = datetime;
  headers['x-amz-content-sha256'] = input.payloadHash;
  const query = Object.fromEntries(input.url.searchParams);
  const signed = signature({ method: input.method, path: input.url.pathname, query, headers, payloadHash: input.payloadHash }, credentials, datetime);
  const { host: _host, ...sent } = headers;
  return { ...sent, authorization: `${ALGORITHM} Credential=${credentials.accessKeyId}/${signed.scope}, SignedHeaders=${signed.signedHeaders}, Signature=${signed.signature}` };
}

/** A GET address valid for `expiresSeconds` (S3 allows at most 7 days) from `now`. */
export function presignS3Url(url: URL, credentials: S3Credentials, now: number, expiresSeconds: number): string {
  const datetime = amzDate(now);
  const query: Record<string, string> = {
    ...Object.fromEntries(url.searchParams),
    'X-Amz-Algorithm': ALGORITHM,
    'X-Amz-Credential': `${credentials.accessKeyId}/${datetime.slice(0, 8)}/${credentials.region}/s3/aws4_request`,
    'X-Amz-Date': datetime,
    'X-Amz-Expires': String(expiresSeconds),
    'X-Amz-SignedHeaders': 'host',
  };
  const signed = signature({ method: 'GET', path: url.pathname, query, headers: { host: url.host }, payloadHash: UNSIGNED_PAYLOAD }, credentials, datetime);
  return `${url.origin}${url.pathname}?${canonicalQuery({ ...query, 'X-Amz-Signature': signed.signature })}`;
}
