// Time from the integrator's click to the linking UI painted, in frame and popup modes (the demo site and the
// widget's script-tag build), beside the floors of the same run (bench/floor-pages.mjs: a click that fetches and
// frames a static cross-site page, or loads it into a popup opened in the click). Times come from the browser's
// own clocks, not Playwright's: every document gets an init script that records, on a shared epoch time base, the
// click's event time and the moment after the first frame painted with the heading in it (two animation frames
// after it appeared). Runs are interleaved (floor, frame, popup floor, popup, then the next round demo first),
// each in a fresh browser context (cold caches, as a first-time user), after one round not counted. Min and
// median; each mode's ratio is to its own floor (frame to the framed floor, popup to the popup floor), and the
// popup floor's own ratio to the framed floor says what a popup itself costs.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/support/chromium.config.mjs';
import { startFloorPages } from './floor-pages.mjs';
import { median } from './median.mjs';

/** The hosted page's heading, whose paint ends a click (also what click-pieces.mjs and click-trace.mjs wait for). */
export const HEADING = 'Connect your social accounts';

/**
 * Runs in every document before its own scripts. Epoch ms: performance.timeOrigin + a high-resolution time. The
 * heading is watched only where it can appear (a frame or a popup), so the integrator page does no work of the
 * bench's; its paint is reported through a binding, so nothing of Playwright runs in any page between the click
 * and that paint (waiting by polling the frame, and evaluating in the page, competed with them for the CPU, more
 * for a page still loading than for the floor's: in 3 alternating pairs of 9-click runs the frame mode measured
 * 1.37-1.52x the floor that way and 1.18-1.31x this way, the floor's median the same, 78-94 vs 79-95 ms).
 */
function instrument(heading) {
  const now = () => performance.timeOrigin + performance.now();
  window.addEventListener('click', (event) => (window.__clickedAt = performance.timeOrigin + event.timeStamp), true);
  if (window.top === window && !window.opener) return;
  const seen = () => [...document.querySelectorAll('h1')].some((h) => h.textContent.trim() === heading);
  const painted = () => requestAnimationFrame(() => requestAnimationFrame(() => window.__reportPainted(now())));
  const observer = new MutationObserver(() => {
    if (!seen()) return;
    observer.disconnect();
    painted();
  });
  observer.observe(document, { childList: true, subtree: true, characterData: true });
}

const round = (ms) => Math.round(ms);

/** One click in a fresh context: ms from the click to the heading painted in the frame or popup. */
export async function oneClick(browser, url, button) {
  const context = await browser.newContext();
  try {
    let reportPainted;
    const painted = new Promise((resolve, reject) => {
      reportPainted = resolve;
      setTimeout(() => reject(new Error(`no heading painted within 15 s after clicking ${button} on ${url}`)), 15_000).unref();
    });
    await context.exposeBinding('__reportPainted', (_source, at) => reportPainted(at));
    await context.addInitScript(instrument, HEADING);
    const page = await context.newPage();
    await page.goto(url);
    await page.locator(button).waitFor();
    // Let the page settle (the demo loads accounts, warms locale data) so the click is a user's click, not a race.
    await page.waitForLoadState('networkidle');
    await page.locator(button).click();
    const paintedAt = await painted;
    return paintedAt - (await page.evaluate(() => window.__clickedAt));
  } finally {
    await context.close();
  }
}

/**
 * demoUrl: a running demo site (npm start). Returns min and median per mode, and the floor of the same run. A first
 * round, not counted, lets the browser make its first processes and connections (else only the run's first click,
 * a floor's, pays for them); then each pair runs in turn floor first and demo first, so neither always follows the
 * other's teardown.
 */
export async function measureClickToUi(demoUrl, runs = Number(process.env.BENCH_CLICKS ?? 9)) {
  const floorPages = await startFloorPages();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const times = { floor: [], frame: [], popupFloor: [], popup: [] };
  const clicks = {
    floor: () => oneClick(browser, floorPages.url, '#floor-button'),
    frame: () => oneClick(browser, demoUrl, '#frame-button'),
    popupFloor: () => oneClick(browser, floorPages.url, '#floor-popup-button'),
    popup: () => oneClick(browser, demoUrl, '#popup-button'),
  };
  try {
    for (const click of Object.values(clicks)) await click();
    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? ['floor', 'frame', 'popupFloor', 'popup'] : ['frame', 'floor', 'popup', 'popupFloor'];
      for (const kind of order) times[kind].push(await clicks[kind]());
    }
  } finally {
    await browser.close();
    await floorPages.stop();
  }
  const summary = (values) => ({ min: round(Math.min(...values)), median: round(median(values)) });
  const ofFloor = (values, floor) => median(values) / median(floor);
  return {
    runs,
    floor: summary(times.floor),
    frame: { ...summary(times.frame), ofFloor: ofFloor(times.frame, times.floor) },
    popupFloor: { ...summary(times.popupFloor), ofFloor: ofFloor(times.popupFloor, times.floor) },
    popup: { ...summary(times.popup), ofFloor: ofFloor(times.popup, times.popupFloor), ofFrameFloor: ofFloor(times.popup, times.floor) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const demoUrl = process.argv[2];
  if (!demoUrl) throw new Error('usage: node bench/click-to-ui.mjs <demo URL> (or npm run bench, which starts one)');
  console.log(await measureClickToUi(demoUrl));
}
