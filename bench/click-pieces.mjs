// The frame-mode click of bench/click-to-ui.mjs cut into pieces, beside the static-iframe floor of the same run:
// click → the page's fetch for a link → the answer → the iframe's src set → its navigation → its HTML → the heading
// painted. Browser clocks (Resource and Navigation Timing, a hook on the iframe's src, the heading's paint as
// click-to-ui.mjs sees it) and, when the stack was started with bench/server-marks.mjs preloaded, the server's own
// clocks (the demo backend's request in and out, its call to the service, whether that call opened a connection,
// the service's create in and out). Medians and mins of each piece, floor clicks and demo clicks interleaved, each
// in a fresh context. Usage:
//   SERVER_MARKS_FILE=/tmp/marks.jsonl node --import tsx --import ./bench/server-marks.mjs scripts/start.ts   (stack)
//   SERVER_MARKS_FILE=/tmp/marks.jsonl node bench/click-pieces.mjs http://localhost:18882 [clicks]
import { chromium } from '@playwright/test';
import { subscribe } from 'node:diagnostics_channel';
import { existsSync, readFileSync } from 'node:fs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.config.mjs';
import { HEADING } from './click-to-ui.mjs';
import { startFloorPages } from './floor-pages.mjs';
import { median } from './median.mjs';

/** Runs in every document before its own scripts; all times in epoch ms. */
function instrument(heading) {
  const now = () => performance.timeOrigin + performance.now();
  window.__marks = { timeOrigin: performance.timeOrigin };
  window.addEventListener('click', (event) => (window.__marks.click ??= performance.timeOrigin + event.timeStamp), true);
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (this instanceof HTMLIFrameElement && name === 'src') window.__marks.srcSet ??= now();
    return setAttribute.call(this, name, value);
  };
  const src = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, 'src');
  Object.defineProperty(HTMLIFrameElement.prototype, 'src', {
    ...src,
    set(value) {
      window.__marks.srcSet ??= now();
      src.set.call(this, value);
    },
  });
  if (window.top === window) return; // the heading is in the frame: the integrator page does no work of the bench's
  const seen = () => [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === heading);
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    window.__marks.headingInDom = now();
    requestAnimationFrame(() => requestAnimationFrame(() => {
      window.__marks.painted ??= now();
      window.__reportPainted();
    }));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

// The floor's servers run in this process: when their requests arrive, for the same pieces as the stack's.
const floorArrivals = [];
subscribe('http.server.request.start', ({ request }) => floorArrivals.push({ t: performance.timeOrigin + performance.now(), method: request.method, path: request.url }));

/** One frame-mode click in a fresh context; returns the browser's marks of the page and of the frame. */
async function oneClick(browser, url, button, fetchPath) {
  const context = await browser.newContext();
  try {
    // The frame reports its paint through a binding, as in click-to-ui.mjs: no polling in the pages meanwhile.
    let reportPainted;
    const painted = new Promise((resolve) => (reportPainted = resolve));
    await context.exposeBinding('__reportPainted', () => reportPainted());
    await context.addInitScript(instrument, HEADING);
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(button).waitFor();
    await page.waitForLoadState('networkidle');
    await page.locator(button).click();
    await painted;
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    const inFrame = await frame.evaluate(() => {
      const [nav] = performance.getEntriesByType('navigation');
      const at = (ms) => performance.timeOrigin + ms;
      return { ...window.__marks, requestStart: at(nav.requestStart), responseStart: at(nav.responseStart), responseEnd: at(nav.responseEnd) };
    });
    const inPage = await page.evaluate((path) => {
      const entry = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === path).at(-1);
      const at = (ms) => performance.timeOrigin + ms;
      return {
        ...window.__marks,
        fetchStart: at(entry.fetchStart),
        requestStart: at(entry.requestStart),
        responseStart: at(entry.responseStart),
        responseEnd: at(entry.responseEnd),
        newConnection: entry.connectEnd > entry.connectStart,
      };
    }, fetchPath);
    const arrival = (method, from) => floorArrivals.find((a) => a.method === method && a.t >= from - 5)?.t;
    const floor = { sessionIn: arrival('POST', inPage.fetchStart), htmlIn: arrival('GET', inFrame.timeOrigin) };
    return { page: inPage, frame: inFrame, floor };
  } finally {
    await context.close();
  }
}

/** The server's marks between the click and the frame's navigation: the demo's POST /api/session and its call. */
function serverPieces(marks, from, to) {
  const inWindow = marks.filter((m) => m.t >= from - 5 && m.t <= to);
  const demoIn = inWindow.find((m) => m.kind === 'server-in' && m.path === '/api/session' && m.method === 'POST');
  if (!demoIn) return null;
  const demoOut = inWindow.find((m) => m.kind === 'server-out' && m.id === demoIn.id && m.port === demoIn.port);
  const create = inWindow.find((m) => m.kind === 'fetch-create' && m.path.endsWith('/profiles/link-sessions') && m.t >= demoIn.t);
  const of = (kind) => inWindow.find((m) => m.kind === kind && m.id === create?.id);
  const serviceIn = inWindow.find((m) => m.kind === 'server-in' && m.path === '/api/profiles/link-sessions' && m.t >= demoIn.t);
  const serviceOut = inWindow.find((m) => m.kind === 'server-out' && m.id === serviceIn?.id && m.port === serviceIn?.port);
  const linkIn = marks.find((m) => m.kind === 'server-in' && m.path === '/link' && m.t >= to - 5);
  const linkOut = marks.find((m) => m.kind === 'server-out' && m.id === linkIn?.id && m.port === linkIn?.port);
  const connected = inWindow.some((m) => m.kind === 'fetch-connected' && create && m.t >= create.t && m.t <= (serviceIn?.t ?? to));
  return { demoIn: demoIn.t, create: create?.t, sent: of('fetch-sent')?.t, serviceIn: serviceIn?.t, serviceOut: serviceOut?.t, headers: of('fetch-headers')?.t, end: of('fetch-end')?.t, demoOut: demoOut?.t, linkIn: linkIn?.t, linkOut: linkOut?.t, connected };
}

const PIECES = [
  ['click → page fetch starts (widget / page before getUrl)', (p) => p.page.fetchStart - p.page.click],
  ['fetch start → request sent (browser)', (p) => p.page.requestStart - p.page.fetchStart],
  ['request sent → answer starts (browser view of the backend)', (p) => p.page.responseStart - p.page.requestStart],
  ['  browser request sent → backend has it', (p) => (p.server ? p.server.demoIn : p.floor.sessionIn) - p.page.requestStart],
  ['  demo backend in → its fetch to the service made', (p) => p.server && p.server.create - p.server.demoIn],
  ['  fetch made → service has it', (p) => p.server && p.server.serviceIn - p.server.create],
  ['  service create, in → out', (p) => p.server && p.server.serviceOut - p.server.serviceIn],
  ['  service out → demo has the answer body', (p) => p.server && p.server.end - p.server.serviceOut],
  ['  demo has the body → its answer written', (p) => p.server && p.server.demoOut - p.server.end],
  ['  demo backend in → out (all of its work)', (p) => p.server && p.server.demoOut - p.server.demoIn],
  ['answer start → answer end (browser)', (p) => p.page.responseEnd - p.page.responseStart],
  ['answer end → iframe src set (JSON, widget render)', (p) => p.page.srcSet - p.page.responseEnd],
  ['src set → frame navigation starts', (p) => p.frame.timeOrigin - p.page.srcSet],
  ['navigation → HTML answer starts', (p) => p.frame.responseStart - p.frame.timeOrigin],
  ['  navigation → its server has the request', (p) => (p.server ? p.server.linkIn : p.floor.htmlIn) - p.frame.timeOrigin],
  ['  its server in → out', (p) => p.server && p.server.linkOut - p.server.linkIn],
  ['HTML answer start → end', (p) => p.frame.responseEnd - p.frame.responseStart],
  ['HTML end → heading in DOM', (p) => p.frame.headingInDom - p.frame.responseEnd],
  ['heading in DOM → painted (2 frames)', (p) => p.frame.painted - p.frame.headingInDom],
  ['click → fetch start → src set (integrator side)', (p) => p.page.srcSet - p.page.click],
  ['TOTAL click → heading painted', (p) => p.frame.painted - p.page.click],
];

export async function measurePieces(demoUrl, clicks) {
  const floorPages = await startFloorPages();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const runs = { floor: [], demo: [] };
  try {
    for (let i = 0; i < clicks; i++) {
      runs.floor.push(await oneClick(browser, floorPages.url, '#floor-button', '/session'));
      runs.demo.push(await oneClick(browser, demoUrl, '#frame-button', '/api/session'));
    }
  } finally {
    await browser.close();
    await floorPages.stop();
  }
  const file = process.env.SERVER_MARKS_FILE;
  if (file) {
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the stack writes its marks a second after the last
    const marks = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
    for (const run of runs.demo) run.server = serverPieces(marks, run.page.click, run.frame.timeOrigin);
  }
  return runs;
}

function table(runs) {
  const cell = (values) => {
    const known = values.filter((v) => typeof v === 'number' && Number.isFinite(v));
    return known.length ? `${median(known).toFixed(1)} (${Math.min(...known).toFixed(1)})` : '–';
  };
  const lines = ['| piece | floor median (min) | demo median (min) |', '|---|---|---|'];
  for (const [name, of] of PIECES) lines.push(`| ${name} | ${cell(runs.floor.map(of))} | ${cell(runs.demo.map(of))} |`);
  const connections = runs.demo.filter((r) => r.server?.connected).length;
  const pageConnections = runs.demo.filter((r) => r.page.newConnection).length;
  lines.push('', `demo backend → service: new connection in ${connections} of ${runs.demo.length} clicks; page → demo backend: ${pageConnections}`);
  lines.push(`ratio of medians, total: ${(median(runs.demo.map(PIECES.at(-1)[1])) / median(runs.floor.map(PIECES.at(-1)[1]))).toFixed(3)}`);
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demoUrl = process.argv[2];
  if (!demoUrl) throw new Error('usage: node bench/click-pieces.mjs <demo URL> [clicks]');
  const runs = await measurePieces(demoUrl, Number(process.argv[3] ?? 9));
  if (process.env.PIECES_JSON) (await import('node:fs')).writeFileSync(process.env.PIECES_JSON, JSON.stringify(runs));
  console.log(table(runs));
}
