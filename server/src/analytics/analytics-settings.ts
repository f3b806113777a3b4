/**
 * @module
 * Analytics settings from the environment (composed by config.ts, the only reader of the environment).
 */
export interface AnalyticsSettings {
  /** `ANALYTICS_SNAPSHOTS`: `off` stops the scheduled snapshots (on by default; answers are still stored). */
  snapshots: boolean;
}

export function readAnalyticsSettings(env: NodeJS.ProcessEnv): AnalyticsSettings {
  return { snapshots: env.ANALYTICS_SNAPSHOTS !== 'off' };
}
