/**
 * @module
 * The one way the service makes an outbound HTTP(S) request (media downloads, network APIs): a `fetch`-shaped
 * function with the webhook sender's SSRF rules. For every hop the hostname is resolved once and each address is
 * judged (webhooks/target-addresses.ts: no private, loopback, link-local, … address unless allowed); the socket is
 * then pinned to those vetted addresses, so a second DNS answer (rebinding) is never used. Redirects are followed
 * by hand and every new location is judged again. One deadline covers the whole request (all hops and the body),
 * and bodies larger than the limit are cut off with an error instead of being buffered.
 *
 * Connections are kept alive and reused (a network call no longer opens a TCP/TLS connection each time): one
 * keep-alive agent per origin AND vetted address set, so a pooled socket is only ever reused for a request whose own
 * resolution vetted the address it is connected to, and every new connection is pinned to addresses vetted for it.
 * Node's own `http.Agent` does the pooling (no dependency: undici is not exposed by Node 20, and the agent takes the
 * pinned `lookup` per connection as the one-shot sockets did).
 *
 * Private targets are allowed only by configuration (`OUTBOUND_ALLOW_PRIVATE_TARGETS=1`), or per exact origin
 * (`allowedOrigins`: the service's own origin when its embedded sandbox serves networks and media on loopback).
 */
import type { IncomingMessage } from 'node:http';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { resolveTargetAddresses, systemResolveHost, type ResolveHost } from '../webhooks/target-addresses.js';
import { pinnedLookup } from '../webhooks/https-sender.js';

export type GuardedFetchFailure = 'bad-url' | 'refused' | 'timeout' | 'too-large' | 'too-many-redirects' | 'network' | 'aborted';

/** Why a guarded request did not produce a response; `kind` lets callers map it to the spec's codes. */
export class GuardedFetchError extends Error {
  readonly kind: GuardedFetchFailure;
  constructor(kind: GuardedFetchFailure, message: string) {
    super(message);
    this.name = 'GuardedFetchError';
    this.kind = kind;
  }
}

export interface GuardedRequestInit extends RequestInit {
  /** Overrides the default time limit for this request (all hops and the body). */
  timeoutMs?: number;
  /** Overrides the default body size limit for this request. */
  maxBytes?: number;
}

export type GuardedFetch = (url: string | URL, init?: GuardedRequestInit) => Promise<Response>;

export interface GuardedFetchOptions {
  /** Connect to private, loopback, link-local, … addresses too (OUTBOUND_ALLOW_PRIVATE_TARGETS). */
  allowPrivateTargets: boolean;
  /** Exact origins (`http://127.0.0.1:8787`) that may be private: read per request, since a port may be known late. */
  allowedOrigins?: () => readonly string[];
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Defaults to the system resolver; tests inject names that resolve where they need. */
  resolveHost?: ResolveHost;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Pools kept per guarded fetch; past this the least recently used one is closed (DNS answers that keep changing). */
const MAX_POOLS = 256;
/**
 * How long an idle connection is kept. Node shortens it to a server's `Keep-Alive: timeout` hint less 1 s, but only
 * below this: without it an idle socket outlives the server's own close (Node's default is 5 s), and the next request
 * on it meets a reset — an unknown outcome for a publish. A request in progress is not cut by it.
 */
const IDLE_SOCKET_MS = 4_000;

/** Keep-alive agents keyed by origin and vetted addresses, most recently used last. */
function connectionPools() {
  const pools = new Map<string, HttpAgent>();
  return (url: URL, addresses: Parameters<typeof pinnedLookup>[0]): HttpAgent => {
    const key = `${url.origin} ${addresses.map((a) => a.address).join(',')}`;
    let agent = pools.get(key);
    if (agent) pools.delete(key);
    else {
      const settings = { keepAlive: true, timeout: IDLE_SOCKET_MS, lookup: pinnedLookup(addresses) };
      agent = url.protocol === 'https:' ? new HttpsAgent(settings) : new HttpAgent(settings);
      if (pools.size >= MAX_POOLS) {
        const [oldest, old] = pools.entries().next().value!;
        pools.delete(oldest);
        old.destroy();
      }
    }
    pools.set(key, agent);
    return agent;
  };
}

export function createGuardedFetch(options: GuardedFetchOptions): GuardedFetch {
  const resolveHost = options.resolveHost ?? systemResolveHost;
  const poolFor = connectionPools();
  return async (input, init = {}) => {
    const timeoutMs = init.timeoutMs ?? options.timeoutMs;
    const maxBytes = init.maxBytes ?? options.maxBytes;
    const deadline = new Deadline(timeoutMs, init.signal ?? null);
    try {
      return await guardedRequest(input, init, maxBytes, deadline);
    } finally {
      deadline.end();
    }
  };

  async function guardedRequest(input: string | URL, init: GuardedRequestInit, maxBytes: number, signal: Deadline): Promise<Response> {
    const failure = () => signal.failure();

    let url = parseHttpUrl(String(input));
    let method = (init.method ?? 'GET').toUpperCase();
    const headers = new Headers(init.headers);
    let body = await bodyBytes(init.body, headers);
    for (let hop = 0; ; hop++) {
      const allowPrivate = options.allowPrivateTargets || (options.allowedOrigins?.().includes(url.origin) ?? false);
      const target = await resolveTargetAddresses(url.hostname, { allowPrivate, resolveHost });
      if (signal.aborted) throw failure();
      if (!target.ok) throw new GuardedFetchError(target.error.startsWith('refused') ? 'refused' : 'network', target.error);
      const answer = await send(url, method, headers, body, target.addresses, poolFor(url, target.addresses), signal, failure);
      const location = answer.headers.location;
      if (init.redirect !== 'manual' && REDIRECT_STATUSES.has(answer.statusCode ?? 0) && typeof location === 'string') {
        answer.destroy();
        if (init.redirect === 'error') throw new GuardedFetchError('network', `redirected to ${location}`);
        if (hop >= options.maxRedirects) throw new GuardedFetchError('too-many-redirects', `more than ${options.maxRedirects} redirects`);
        const next = parseHttpUrl(new URL(location, url).href);
        // A credential meant for one origin never travels to another.
        if (next.origin !== url.origin) {
          headers.delete('authorization');
          headers.delete('cookie');
        }
        if (answer.statusCode === 303 || ((answer.statusCode === 301 || answer.statusCode === 302) && method === 'POST')) {
          method = method === 'HEAD' ? 'HEAD' : 'GET';
          body = null;
          headers.delete('content-type');
        }
        url = next;
        continue;
      }
      return toResponse(answer, method, maxBytes, signal, failure, url);
    }
  }
}

/**
 * One deadline for a whole request (every hop and the body), and the caller's own signal: a timer and a listener
 * that destroy the request or answer in flight, not an AbortSignal per call (issue 31: creating one costs tens of µs).
 */
class Deadline {
  #timedOut = false;
  #callerAborted = false;
  readonly #timer: NodeJS.Timeout;
  readonly #caller: AbortSignal | null;
  readonly #onCallerAbort = () => this.#abort(false);
  /** The request or answer in flight, destroyed when the deadline passes or the caller aborts. */
  #inFlight: { destroy(): void } | null = null;

  constructor(
    readonly timeoutMs: number,
    caller: AbortSignal | null,
  ) {
    this.#timer = setTimeout(() => this.#abort(true), timeoutMs);
    this.#caller = caller;
    if (caller?.aborted) this.#callerAborted = true;
    else caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
  }

  get aborted(): boolean {
    return this.#timedOut || this.#callerAborted;
  }

  /** What a request ended by this deadline or its caller throws. */
  failure(): GuardedFetchError {
    return this.#timedOut ? new GuardedFetchError('timeout', `timed out after ${this.timeoutMs} ms`) : new GuardedFetchError('aborted', 'aborted');
  }

  watch(inFlight: { destroy(): void } | null): void {
    this.#inFlight = inFlight;
    if (inFlight && this.aborted) inFlight.destroy();
  }

  end(): void {
    clearTimeout(this.#timer);
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }

  #abort(timedOut: boolean): void {
    if (this.aborted) return;
    if (timedOut) this.#timedOut = true;
    else this.#callerAborted = true;
    this.#inFlight?.destroy();
  }
}

function parseHttpUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new GuardedFetchError('bad-url', `not an http(s) URL: ${text.slice(0, 200)}`);
  }
  if (url.username || url.password) throw new GuardedFetchError('bad-url', 'URLs with credentials are not fetched');
  return url;
}

/** Any `fetch` body (string, bytes, form data, …) as bytes, filling in the content type fetch would send. */
async function bodyBytes(body: RequestInit['body'] | null | undefined, headers: Headers): Promise<Uint8Array | null> {
  if (body === null || body === undefined) return null;
  // The bodies the network adapters send (JSON text, bytes) without a fetch Response around them: the content type
  // and bytes are what fetch's body extraction gives them.
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
    return Buffer.from(body, 'utf8');
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const encoded = new Response(body);
  const type = encoded.headers.get('content-type');
  if (type && !headers.has('content-type')) headers.set('content-type', type);
  return new Uint8Array(await encoded.arrayBuffer());
}

function send(
  url: URL,
  method: string,
  headers: Headers,
  body: Uint8Array | null,
  addresses: Parameters<typeof pinnedLookup>[0],
  agent: HttpAgent,
  signal: Deadline,
  failure: () => GuardedFetchError,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const outgoingHeaders: Record<string, string> = Object.fromEntries(headers);
    if (body) outgoingHeaders['content-length'] = String(body.byteLength);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method,
      headers: outgoingHeaders,
      agent,
      lookup: pinnedLookup(addresses),
    });
    signal.watch(request);
    request.on('response', (answer) => {
      signal.watch(answer);
      resolve(answer);
    });
    request.on('error', (error) => reject(signal.aborted ? failure() : new GuardedFetchError('network', error.message)));
    request.end(body ?? undefined);
  });
}

/** Reads the body up to the limit and builds a standard Response (redirected responses keep the final URL). */
async function toResponse(
  answer: IncomingMessage,
  method: string,
  maxBytes: number,
  signal: Deadline,
  failure: () => GuardedFetchError,
  finalUrl: URL,
): Promise<Response> {
  const status = answer.statusCode ?? 502;
  const declared = Number(answer.headers['content-length'] ?? NaN);
  if (method !== 'HEAD' && Number.isFinite(declared) && declared > maxBytes) {
    answer.destroy();
    throw new GuardedFetchError('too-large', `the body is ${declared} bytes, more than the limit of ${maxBytes}`);
  }
  let chunks: Buffer[];
  try {
    chunks = await readBody(answer, maxBytes);
  } catch (error) {
    if (error instanceof GuardedFetchError) throw error;
    throw signal.aborted ? failure() : new GuardedFetchError('network', error instanceof Error ? error.message : String(error));
  }
  const noBody = method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200);
  const response = new BufferedResponse(noBody ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), status < 200 ? 502 : status);
  // Filled once (a Headers passed to the constructor would be copied into another one).
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) response.headers.append(name, one);
  }
  Object.defineProperty(response, 'url', { value: finalUrl.href });
  return response as unknown as Response;
}

/** fetch's Response, typed as a plain class so a subclass may define its body members as methods and accessors. */
const FetchResponse = Response as unknown as new (body: null, init: ResponseInit) => Pick<Response, 'status' | 'headers' | 'url'>;

/**
 * A standard Response (a subclass of fetch's own) whose body is bytes already read, within the size limit, rather
 * than a stream: json(), text() and arrayBuffer() read them directly. Issue 31: on Node 20 a body stream costs a
 * ReadableStream made transferable and a read of it, about a third of a call's client-side CPU. Whatever needs the
 * stream (`body`, `blob()`, `formData()`, `bytes()`) gets a Response made from the same bytes on first use, so it
 * behaves as fetch's own; a body is read once either way, and `clone()` gives another one of the same bytes.
 */
class BufferedResponse extends FetchResponse {
  readonly #bytes: Buffer | null;
  #read = false;
  #streamed: Response | null = null;

  constructor(bytes: Buffer | null, status: number) {
    super(null, { status });
    this.#bytes = bytes;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#bytes === null ? null : this.#stream().body;
  }

  get bodyUsed(): boolean {
    return this.#read || (this.#streamed?.bodyUsed ?? false);
  }

  async text(): Promise<string> {
    const bytes = this.#take();
    // As fetch decodes: UTF-8, a leading byte order mark dropped, bad sequences replaced.
    return bytes === undefined ? this.#stream().text() : new TextDecoder().decode(bytes);
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#take();
    return bytes === undefined ? this.#stream().arrayBuffer() : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  }

  blob(): Promise<Blob> {
    return this.#stream().blob();
  }

  formData(): Promise<FormData> {
    return this.#stream().formData();
  }

  bytes(): Promise<Uint8Array> {
    return (this.#stream() as Response & { bytes(): Promise<Uint8Array> }).bytes();
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.');
    const copy = new BufferedResponse(this.#bytes, this.status);
    for (const [name, value] of this.headers) copy.headers.append(name, value);
    Object.defineProperty(copy, 'url', { value: this.url });
    return copy as unknown as Response;
  }

  /** The bytes for a direct read, once; undefined once the stream was made (it answers then). */
  #take(): Buffer | undefined {
    if (this.#streamed) return undefined;
    if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
    this.#read = true;
    return this.#bytes ?? Buffer.alloc(0);
  }

  /** fetch's Response of the same bytes, made on the first use that needs the stream. */
  #stream(): Response {
    if (!this.#streamed) {
      if (this.#read) throw new TypeError('Body is unusable: Body has already been read');
      // A copy: fetch's Response takes bytes on an ArrayBuffer of their own; only the stream-reading uses pay it.
      this.#streamed = new Response(this.#bytes && new Uint8Array(this.#bytes));
    }
    return this.#streamed;
  }
}

/** The answer's body chunks, up to `maxBytes` (then the answer is destroyed); listeners, not an async iterator (issue 31: cheaper per call). */
function readBody(answer: IncomingMessage, maxBytes: number): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    answer.on('data', (chunk: Buffer) => {
      total += chunk.byteLength;
      if (total > maxBytes) {
        answer.destroy();
        reject(new GuardedFetchError('too-large', `the body is more than the limit of ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    answer.on('end', () => resolve(chunks));
    answer.on('error', reject);
    // Destroyed before its end (the deadline's abort, the socket reset): an error, as the async iterator gave one.
    answer.on('close', () => {
      if (!answer.complete) reject(new Error('aborted'));
    });
  });
}
