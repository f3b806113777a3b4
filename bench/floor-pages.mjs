// The floors for the click benchmark: the least any click → framed page, and any click → popup, can take in this
// browser on this machine. An integrator-like page on localhost whose buttons POST to its own backend (answered at
// once), then frame a static page on 127.0.0.1 (another site, so a new renderer process, as with the hosted page)
// whose heading is in its HTML, or load it into a popup opened inside the click (as the widget does: a window
// opened after an await would be blocked). Same heading text as the hosted page, so the benchmark waits for all
// of them the same way.
import { createServer } from 'node:http';

const FRAMED = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor</title></head>
<body><main><h1>Connect your social accounts</h1></main></body></html>`;

const INTEGRATOR = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>floor integrator</title></head>
<body><button id="floor-button" type="button">Connect</button>
<button id="floor-popup-button" type="button">Connect in a popup</button>
<script type="module">
const session = async () => (await (await fetch('/session', { method: 'POST' })).json()).url;
document.getElementById('floor-button').addEventListener('click', async () => {
  const url = await session();
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.style.cssText = 'width:600px;height:400px;border:0';
  document.body.append(frame);
});
document.getElementById('floor-popup-button').addEventListener('click', async () => {
  const popup = window.open('about:blank', '_blank', 'popup,width=500,height=640');
  popup.location.href = await session();
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
