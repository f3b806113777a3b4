// Server-side clocks for the click breakdown (bench/click-pieces.mjs): preloaded into the stack's process
// (`node --import tsx --import ./bench/server-marks.mjs scripts/start.ts`), it records, on the same epoch time base
// as the browser's clocks, when each HTTP request reached a server of this process and when its answer was written,
// and for each outbound fetch (the demo backend's call to the service): when it was made, whether it opened a new
// connection, when its headers were sent and when the answer's headers and end came back. Nothing in the product
// changes: Node's diagnostics channels are read only. Marks are kept in memory and written to SERVER_MARKS_FILE once
// a second. Each mark has `t` (epoch ms) and `h` (the monotonic clock in µs,
// the time base of a `--cpu-prof` profile, to cut a profile at these marks).
import { subscribe } from 'node:diagnostics_channel';
import { appendFileSync } from 'node:fs';

const file = process.env.SERVER_MARKS_FILE;
if (!file) throw new Error('server-marks.mjs needs SERVER_MARKS_FILE');

const now = () => performance.timeOrigin + performance.now();
const pending = [];
const ids = new WeakMap();
let nextId = 1;
const idOf = (object) => ids.get(object) ?? (ids.set(object, nextId++), nextId - 1);

// A mark is only pushed (re-arming a timer per mark cost about 0.5 ms per click); a timer writes them out.
const mark = (entry) => pending.push({ t: now(), h: Number(process.hrtime.bigint() / 1000n), ...entry });
setInterval(() => {
  if (pending.length > 0) appendFileSync(file, pending.splice(0).map((m) => JSON.stringify(m)).join('\n') + '\n');
}, 1000).unref();

subscribe('http.server.request.start', ({ request, socket }) =>
  mark({ kind: 'server-in', id: idOf(request), port: socket.localPort, method: request.method, path: request.url.split('?')[0] }));
subscribe('http.server.response.finish', ({ request, socket }) =>
  mark({ kind: 'server-out', id: idOf(request), port: socket.localPort, method: request.method, path: request.url.split('?')[0] }));
subscribe('undici:request:create', ({ request }) => mark({ kind: 'fetch-create', id: idOf(request), method: request.method, path: request.path.split('?')[0] }));
subscribe('undici:client:connected', ({ socket }) => mark({ kind: 'fetch-connected', port: socket.remotePort }));
subscribe('undici:client:sendHeaders', ({ request }) => mark({ kind: 'fetch-sent', id: idOf(request) }));
subscribe('undici:request:headers', ({ request }) => mark({ kind: 'fetch-headers', id: idOf(request) }));
subscribe('undici:request:trailers', ({ request }) => mark({ kind: 'fetch-end', id: idOf(request) }));
