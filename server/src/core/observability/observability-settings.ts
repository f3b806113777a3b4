/**
 * @module
 * `METRICS_PORT`: serve `/metrics` on its own loopback-or-HOST port without a token (for a scraper on a private
 * network), instead of on the main port behind `ADMIN_TOKEN`.
 */
export interface ObservabilitySettings {
  metricsPort: number | null;
}

export function readObservabilitySettings(env: NodeJS.ProcessEnv): ObservabilitySettings {
  const value = env.METRICS_PORT;
  if (!value) return { metricsPort: null };
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('METRICS_PORT must be a port number.');
  return { metricsPort: port };
}
