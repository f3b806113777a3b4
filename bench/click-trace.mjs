// Where the browser's CPU goes between a frame-mode click and the heading painted, for the demo and for the
// static-iframe floor: a Chromium trace of each click (fresh context, as in bench/click-to-ui.mjs), cut from the
// click's event to the heading's second frame, and summed per process and thread (the integrator page's renderer,
// the framed page's renderer, the browser, GPU and network processes) and, on each renderer's main thread, per
// kind of top-level work (script, style and layout, paint, parse). Usage:
//   node bench/click-trace.mjs http://localhost:18882 [clicks per side]
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.config.mjs';
import { HEADING } from './click-to-ui.mjs';
import { startFloorPages } from './floor-pages.mjs';
import { median } from './median.mjs';

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel', 'v8.execute', 'blink.user_timing', 'loading', 'navigation', '__metadata'];
// Top-level renderer work by devtools name; what is not listed counts as "other tasks".
const KINDS = {
  script: ['EvaluateScript', 'FunctionCall', 'TimerFire', 'EventDispatch', 'FireAnimationFrame', 'v8.compileModule', 'v8.evaluateModule', 'RunMicrotasks', 'v8.run'],
  'style+layout': ['UpdateLayoutTree', 'Layout', 'RecalculateStyles', 'PrePaint', 'IntersectionObserverController::computeIntersections'],
  paint: ['Paint', 'PaintImage', 'UpdateLayerTree', 'Layerize', 'Commit', 'CompositeLayers', 'RasterTask'],
  parse: ['ParseHTML', 'ParseAuthorStyleSheet'],
};

function instrument(heading) {
  window.addEventListener('click', (event) => (window.__clickedAt = performance.timeOrigin + event.timeStamp), true);
  const now = () => performance.timeOrigin + performance.now();
  const seen = () => [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === heading);
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    requestAnimationFrame(() => requestAnimationFrame(() => (window.__headingPaintedAt ??= now())));
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

async function tracedClick(browser, url, button) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(instrument, HEADING);
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(button).waitFor();
    await page.waitForLoadState('networkidle');
    await browser.startTracing(undefined, { categories: CATEGORIES });
    await page.locator(button).click();
    const frame = await (await page.waitForSelector('iframe')).contentFrame();
    const painted = await (await frame.waitForFunction(() => window.__headingPaintedAt, undefined, { timeout: 15_000 })).jsonValue();
    const clicked = await page.evaluate(() => window.__clickedAt);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
    return summarize(trace.traceEvents ?? trace, painted - clicked);
  } finally {
    await context.close();
  }
}

/** Busy ms per process/thread and per kind of main-thread work, from the click's dispatch for `totalMs`. */
function summarize(events, totalMs) {
  const names = new Map();
  for (const e of events) {
    if (e.ph === 'M' && e.name === 'process_name') names.set(`p${e.pid}`, e.args.name);
    if (e.ph === 'M' && e.name === 'thread_name') names.set(`t${e.pid}:${e.tid}`, e.args.name);
  }
  // Which renderer holds which page: the click is dispatched in the integrator's, the framed page is parsed in its own.
  const sites = new Map();
  for (const e of events) {
    if (e.name === 'EventDispatch' && e.args?.data?.type === 'click') sites.set(e.pid, 'integrator page');
    const parsed = e.name === 'ParseHTML' && e.args?.beginData?.url;
    if (parsed && /^https?:/.test(parsed) && !sites.has(e.pid)) sites.set(e.pid, 'framed page');
  }
  const click = events.find((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'click');
  if (!click) throw new Error('no click in the trace');
  const from = click.ts;
  const to = from + totalMs * 1000;
  const busy = new Map();
  const kinds = new Map();
  const outermostEnd = new Map();
  for (const e of [...events].sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))) {
    if (e.ph !== 'X' || e.ts > to || e.ts + (e.dur ?? 0) < from) continue;
    const clipped = (Math.min(e.ts + e.dur, to) - Math.max(e.ts, from)) / 1000;
    const process = sites.get(e.pid) ? `renderer, ${sites.get(e.pid)}` : names.get(`p${e.pid}`) ?? `pid ${e.pid}`;
    const thread = names.get(`t${e.pid}:${e.tid}`) ?? `tid ${e.tid}`;
    const key = `${process} / ${thread}`;
    // Tasks nest (a task runs a nested loop): count only the outermost ones of each thread.
    if ((e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') && e.ts >= (outermostEnd.get(key) ?? 0)) {
      outermostEnd.set(key, e.ts + e.dur);
      busy.set(key, (busy.get(key) ?? 0) + clipped);
    }
    if (thread === 'CrRendererMain') {
      const kind = Object.entries(KINDS).find(([, list]) => list.includes(e.name))?.[0];
      if (kind) kinds.set(`${process} ${kind}`, (kinds.get(`${process} ${kind}`) ?? 0) + clipped);
    }
  }
  return { totalMs, busy, kinds };
}

function report(label, results) {
  const keys = (field) => [...new Set(results.flatMap((r) => [...r[field].keys()]))].sort();
  console.log(`\n## ${label}: ${results.length} clicks, click → painted median ${median(results.map((r) => r.totalMs)).toFixed(1)} ms`);
  console.log('| busy in the window (median ms) | |\n|---|---|');
  for (const key of keys('busy')) {
    const value = median(results.map((r) => r.busy.get(key) ?? 0));
    if (value >= 0.5) console.log(`| ${key} | ${value.toFixed(1)} |`);
  }
  console.log('| main-thread work by kind (median ms, nested events may overlap) | |\n|---|---|');
  for (const key of keys('kinds')) console.log(`| ${key} | ${median(results.map((r) => r.kinds.get(key) ?? 0)).toFixed(1)} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demoUrl = process.argv[2];
  if (!demoUrl) throw new Error('usage: node bench/click-trace.mjs <demo URL> [clicks per side]');
  const clicks = Number(process.argv[3] ?? 5);
  const floorPages = await startFloorPages();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const results = { floor: [], demo: [] };
  try {
    for (let i = 0; i < clicks; i++) {
      results.floor.push(await tracedClick(browser, floorPages.url, '#floor-button'));
      results.demo.push(await tracedClick(browser, demoUrl, '#frame-button'));
    }
  } finally {
    await browser.close();
    await floorPages.stop();
  }
  report('floor', results.floor);
  report('demo', results.demo);
}
