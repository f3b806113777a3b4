// Latency at a steady request rate (open loop): one request is due every 1000/rate ms whatever the earlier ones
// are doing, and each latency counts from when the request was due, so a stalled server cannot hide its stall by
// slowing the generator down (autocannon's -R sends per-connection bursts and inflates p99 even for a bare server).
import { Agent, request } from 'node:http';

/** target: {url, method, headers, body or makeBody()}. Returns {sent, failed, p50, p99, max} in ms over `seconds`. */
export async function openLoopLatency(target, { rate = 1000, seconds = 3 } = {}) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(target.url);
  const bodyOf = target.makeBody ?? (() => target.body ?? null);
  const latencies = [];
  let failed = 0;
  const one = (dueAt) =>
    new Promise((resolve) => {
      const body = bodyOf();
      const headers = { ...target.headers, ...(body !== null && { 'Content-Length': Buffer.byteLength(body) }) };
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method: target.method ?? 'GET', headers, agent },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode !== 200) failed += 1;
            latencies.push(performance.now() - dueAt);
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(body ?? undefined);
    });

  const total = rate * seconds;
  const interval = 1000 / rate;
  const start = performance.now();
  const inFlight = [];
  let sent = 0;
  await new Promise((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor((performance.now() - start) / interval) + 1);
      while (sent < due) inFlight.push(one(start + sent++ * interval));
      if (sent < total) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(inFlight);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] * 10) / 10;
  return { sent, failed, p50: at(0.5), p99: at(0.99), max: at(1) };
}
