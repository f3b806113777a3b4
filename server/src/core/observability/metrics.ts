/**
 * @module
 * A small Prometheus registry (text format 0.0.4): counters and histograms with labels, and collectors that read
 * gauges at scrape time (e.g. the webhook outbox from the database). Named hooks for the parts that record
 * outcomes: `jobOutcome` and `publishOutcome` (the jobs and publishing modules call them), `webhookDelivery`.
 * Hand-written for the request hot path (one map lookup per request); the process and runtime series (CPU, memory,
 * heap, event-loop lag, GC, handles) come from prom-client's default collectors, rendered after the service's own.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
type Labels = Record<string, string>;

const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([name, value]) => `${name}="${value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"')}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/**
 * Where a label set's series is kept: each name and value with its length in front, so two different sets never
 * share a key. Built by concatenation: JSON.stringify here was most of the cost of counting a request.
 */
function seriesKey(labels: Labels): string {
  let key = '';
  for (const name in labels) {
    const value = labels[name]!;
    key += `${name.length}:${name}${value.length}:${value}`;
  }
  return key;
}

class Counter {
  readonly #values = new Map<string, { labels: Labels; value: number }>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}
  inc(labels: Labels, by = 1): void {
    this.entry(labels).value += by;
  }
  /** The series of `labels` (created at 0), to count on directly. */
  entry(labels: Labels): { labels: Labels; value: number } {
    const key = seriesKey(labels);
    let entry = this.#values.get(key);
    if (!entry) {
      entry = { labels, value: 0 };
      this.#values.set(key, entry);
    }
    return entry;
  }
  render(): string[] {
    return [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`, ...[...this.#values.values()].map((e) => `${this.name}${labelText(e.labels)} ${e.value}`)];
  }
}

interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

class Histogram {
  readonly #series = new Map<string, HistogramSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: number[],
  ) {}
  observe(labels: Labels, value: number): void {
    this.observeIn(this.series(labels), value);
  }
  /** The series of `labels` (created empty), to observe into directly. */
  series(labels: Labels): HistogramSeries {
    const key = seriesKey(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    return series;
  }
  observeIn(series: HistogramSeries, value: number): void {
    for (let i = 0; i < this.buckets.length; i++) if (value <= this.buckets[i]!) series.counts[i]!++;
    series.sum += value;
    series.count++;
  }
  render(): string[] {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const s of this.#series.values()) {
      this.buckets.forEach((bound, i) => lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: String(bound) })} ${s.counts[i]}`));
      lines.push(`${this.name}_bucket${labelText({ ...s.labels, le: '+Inf' })} ${s.count}`);
      lines.push(`${this.name}_sum${labelText(s.labels)} ${s.sum}`, `${this.name}_count${labelText(s.labels)} ${s.count}`);
    }
    return lines;
  }
}

/**
 * prom-client's standard series of this process (`process_*`, `nodejs_*`): one registry per process, as they
 * describe the process, however many services a test starts in it.
 */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** A gauge family read when scraped: `read()` returns its current series. */
export interface GaugeCollector {
  name: string;
  help: string;
  read(): Promise<{ labels: Labels; value: number }[]>;
}

export class ServiceMetrics {
  readonly #requests = new Counter('slk_http_requests_total', 'HTTP requests by method, route pattern and status.');
  readonly #latency = new Histogram('slk_http_request_duration_seconds', 'HTTP request latency by method and route pattern.', LATENCY_BUCKETS_S);
  readonly #jobs = new Counter('slk_jobs_total', 'Background jobs finished, by kind and outcome (done, retry, failed).');
  readonly #publishes = new Counter('slk_publish_outcomes_total', 'Publish attempts per network and outcome (success, pending, error).');
  readonly #webhooks = new Counter('slk_webhook_deliveries_total', 'Webhook delivery attempts by outcome (delivered, retry, failed).');
  readonly #collectors: GaugeCollector[] = [];

  /**
   * A request's count and latency series, found by one key instead of two label sets: the method has no space and
   * the status is last, so the key names one (method, route, status) only.
   */
  readonly #requestSeries = new Map<string, { count: { value: number }; latency: HistogramSeries }>();

  request(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${route} ${status}`;
    let series = this.#requestSeries.get(key);
    if (!series) {
      series = { count: this.#requests.entry({ method, route, status: String(status) }), latency: this.#latency.series({ method, route }) };
      if (this.#requestSeries.size >= 10_000) this.#requestSeries.clear();
      this.#requestSeries.set(key, series);
    }
    series.count.value += 1;
    this.#latency.observeIn(series.latency, seconds);
  }

  /** Hook for the jobs module. */
  jobOutcome(kind: string, outcome: 'done' | 'retry' | 'failed'): void {
    this.#jobs.inc({ kind, outcome });
  }

  /** Hook for the publishing module. */
  publishOutcome(network: string, outcome: 'success' | 'pending' | 'error'): void {
    this.#publishes.inc({ network, outcome });
  }

  /** Hook for the webhook delivery worker. */
  webhookDelivery(outcome: 'delivered' | 'retry' | 'failed'): void {
    this.#webhooks.inc({ outcome });
  }

  /** Gauges read at scrape time, e.g. jobs due/running/failed/late from the jobs table. */
  addCollector(collector: GaugeCollector): void {
    this.#collectors.push(collector);
  }

  async render(): Promise<string> {
    const lines = [...this.#requests.render(), ...this.#latency.render(), ...this.#jobs.render(), ...this.#publishes.render(), ...this.#webhooks.render()];
    for (const collector of this.#collectors) {
      lines.push(`# HELP ${collector.name} ${collector.help}`, `# TYPE ${collector.name} gauge`);
      for (const { labels, value } of await collector.read()) lines.push(`${collector.name}${labelText(labels)} ${value}`);
    }
    return `${lines.join('\n')}\n${await processMetrics().metrics()}`;
  }
}
