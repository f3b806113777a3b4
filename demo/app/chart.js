// Charts over time with uPlot (about 50 KB minified, 22 KB gzipped, no dependencies, canvas): the smallest
// well-kept charting library that draws time series well; Chart.js is four times its size for the same lines.
import uPlot from 'uplot';
import { h } from './dom.js';

const COLORS = ['#3451b2', '#c2410c', '#15803d', '#7e22ce', '#0e7490', '#b91c1c'];

/**
 * A line chart of `points` ({takenAt, analytics}) for the numeric metrics they hold, in a figure whose caption says
 * in words what the canvas shows (screen readers get the numbers, not a picture).
 */
export function metricsChart(points, title) {
  const metrics = [...new Set(points.flatMap((point) => Object.entries(point.analytics ?? {}).filter(([, value]) => typeof value === 'number').map(([name]) => name)))].slice(0, COLORS.length);
  const figure = h('figure', { className: 'chart' });
  if (points.length === 0 || metrics.length === 0) {
    figure.append(h('p', { className: 'empty' }, 'No analytics yet for this network.'));
    return figure;
  }
  const times = points.map((point) => Date.parse(point.takenAt) / 1000);
  const data = [times, ...metrics.map((metric) => points.map((point) => Number(point.analytics?.[metric] ?? 0)))];
  const last = points.at(-1).analytics;
  const summary = metrics.map((metric) => `${metric} ${last[metric] ?? 0}`).join(', ');
  const caption = h('figcaption', {}, `${title}: ${summary} (${points.length} reading${points.length === 1 ? '' : 's'})`);
  const canvasBox = h('div', { className: 'chart-canvas', ariaHidden: 'true' });
  const legend = h('ul', { className: 'legend' }, metrics.map((metric, i) => h('li', {}, h('span', { className: 'swatch', style: `background:${COLORS[i]}` }), metric)));
  figure.append(caption, canvasBox, legend);
  const options = {
    width: 320,
    height: 180,
    legend: { show: false },
    cursor: { show: false },
    // One reading: half an hour either side of it (uPlot would otherwise stretch a single instant over years).
    scales: { x: times.length === 1 ? { time: true, auto: false, range: [times[0] - 1800, times[0] + 1800] } : { time: true } },
    series: [{}, ...metrics.map((metric, i) => ({ label: metric, stroke: COLORS[i], width: 2, points: { show: true, size: 5 } }))],
    axes: [{ stroke: '#4a5468', grid: { stroke: '#e6e9f0' } }, { stroke: '#4a5468', grid: { stroke: '#e6e9f0' }, size: 40 }],
  };
  // Drawn once the figure is in the page, at the width it was given (desktop card or a 390 px phone).
  requestAnimationFrame(() => {
    const plot = new uPlot({ ...options, width: Math.max(240, canvasBox.clientWidth || 320) }, data, canvasBox);
    new ResizeObserver(() => plot.setSize({ width: Math.max(240, canvasBox.clientWidth), height: 180 })).observe(canvasBox);
  });
  return figure;
}
