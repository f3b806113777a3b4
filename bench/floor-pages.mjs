// The floor for the click benchmark: the least any click → framed page can take in this browser on this machine.
// An integrator-like page on localhost whose button POSTs to its own backend (answered at once), then frames a
// static page on 127.0.0.1 (another site, so a new renderer process, as with the hosted page) whose heading is in
// its HTML. Same heading text as the hosted page, so the benchmark waits for both the same way.
import { createServer } from 'node:http';

const FRAMED = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head>
<body><main><h1>Connect your social accounts</h1></main></body></html>`;

const INTEGRATOR = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor integrator</title></head>
<body><button id="floor-button" type="button">Connect</button>
<script type="module">
document.getElementById('floor-button').addEventListener('click', async () => {
  const { url } = await (await fetch('/session', { method: 'POST' })).json();
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.style.cssText = 'width:600px;height:400px;border:0';
  document.body.append(frame);
});
</script></body></html>`;

function listen(server) {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
}

/** Starts both servers; returns the integrator page's URL and a stop(). */
export async function startFloorPages() {
  const framed = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(FRAMED));
  const framedPort = await listen(framed);
  const framedUrl = `http://127.0.0.1:${framedPort}/`;
  const page = createServer((req, res) => {
    if (req.method === 'POST') {
      req.resume();
      return res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: framedUrl }));
    }
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).end(INTEGRATOR);
  });
  const pagePort = await listen(page);
  return {
    url: `http://localhost:${pagePort}/`,
    stop: () => Promise.all([new Promise((r) => framed.close(r)), new Promise((r) => page.close(r))]),
  };
}
