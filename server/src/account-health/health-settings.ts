/**
 * @module
 * Account health settings from the environment (composed by config.ts, the only reader of the environment).
 */
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface AccountHealthSettings {
  /** `ACCOUNT_HEALTH_CHECKS`: `off` stops the background renewals and checks (on by default). */
  enabled: boolean;
  /** `ACCOUNT_HEALTH_SWEEP_MS`: how often the sweep looks for due accounts and scheduled posts (60 s). */
  sweepMs: number;
  /** `PREFLIGHT_MINUTES`: how long before a scheduled post is due its accounts are checked (30). */
  preflightMs: number;
  /** `ACCOUNT_EXPIRING_DAYS`: how long before a known expiry `account.expiring` is sent (7). */
  expiringNoticeMs: number;
}

export function readAccountHealthSettings(env: NodeJS.ProcessEnv): AccountHealthSettings {
  const positive = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isFinite(value) && value > 0 ? value : fallback;
  };
  return {
    enabled: env.ACCOUNT_HEALTH_CHECKS !== 'off',
    sweepMs: positive('ACCOUNT_HEALTH_SWEEP_MS', MINUTE),
    preflightMs: positive('PREFLIGHT_MINUTES', 30) * MINUTE,
    expiringNoticeMs: positive('ACCOUNT_EXPIRING_DAYS', 7) * DAY,
  };
}
