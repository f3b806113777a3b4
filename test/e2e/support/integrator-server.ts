/**
 * A stand-in integrator page on its own origin: it frames or opens a link URL and records every message it
 * receives (origin and data) in `window.received`, so a test can check what arrived and what did not.
 */
import { createServer, type Server } from 'node:http';

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Integrator</title></head>
<body><h1>Integrator test page</h1><button id="open-popup" type="button">Open popup</button>
<div id="slot"></div><script type="module" src="/integrator.js"></script></body></html>`;

const SCRIPT = `window.received = [];
window.addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
const params = new URLSearchParams(location.search);
const url = params.get('url');
if (params.get('mode') === 'frame' && url) {
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.title = 'Account linking';
  frame.width = '480';
  frame.height = '640';
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox');
  document.getElementById('slot').append(frame);
}
document.getElementById('open-popup').addEventListener('click', () => { window.linkPopup = window.open(url, 'link', 'popup,width=520,height=720'); });
`;

/** Listens on 127.0.0.1; `originHost` (`localhost` or `127.0.0.1`) and the port make the page's origin. */
export async function startIntegratorServer(originHost: 'localhost' | '127.0.0.1', port = 0): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/integrator.js')) {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(SCRIPT);
    } else {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    origin: `http://${originHost}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
