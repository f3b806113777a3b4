/**
 * @module
 * Service settings, all from the environment with embedded defaults: loopback, a SQLite file under ./data,
 * sandbox networks outside production. Nothing here is a secret default that would be safe in production. This is
 * the only module that reads the environment: settings-schema.ts checks every variable first (a SettingsError
 * names a bad one), then each feature's `read…Settings(env)` applies its defaults and this composes them.
 */
import { join } from 'node:path';
import { parseSettings } from './settings-schema.js';
import { readTokenKeySettings, type TokenKeySettings } from './core/crypto/load-token-cipher.js';
import { readLimitSettings, type LimitSettings } from './core/limits/limit-settings.js';
import { readSqliteSynchronous, type SqliteSynchronous } from './core/db/sqlite-settings.js';
import { readNetworkSettings, type NetworkSettings } from './networks/network-settings.js';
import { readPublishingSettings, type PublishingSettings } from './publishing/publishing-settings.js';
import { readAnalyticsSettings, type AnalyticsSettings } from './analytics/analytics-settings.js';
import { readAccountHealthSettings, type AccountHealthSettings } from './account-health/health-settings.js';
import { readOutboundSettings, type OutboundSettings } from './core/outbound-settings.js';
import { readWebhookSettings, type WebhookDeliverySettings } from './webhooks/delivery-settings.js';
import { readAdminSettings, type AdminSettings } from './accounts/admin/admin-settings.js';
import { readObservabilitySettings, type ObservabilitySettings } from './core/observability/observability-settings.js';

export interface ServiceConfig {
  /** `NODE_ENV=production`: no sandbox unless asked for, no development account, a token key required. */
  production: boolean;
  host: string;
  port: number;
  /** Public base address of this service, without a trailing slash (the API is under `/api`). */
  publicUrl: string;
  /** The hosted linking page address; link URLs are `{linkingUrl}?session=…&domain=…`. */
  linkingUrl: string;
  dataDir: string;
  /** SQLite file; ignored when `databaseUrl` is set. */
  databaseFile: string;
  /** `SQLITE_SYNCHRONOUS` (see core/db/sqlite-settings.ts): what an answered write survives. */
  sqliteSynchronous: SqliteSynchronous;
  /** `SQLITE_MMAP_MB`: how much of the SQLite file is read through a memory map (0: none). */
  sqliteMmapMb: number;
  /** PostgreSQL connection string; when set, PostgreSQL is used instead of SQLite. */
  databaseUrl: string | null;
  /** SMTP server for link emails (`smtp://user:pass@host:port`); without it, emails report `emailSent: false`. */
  smtpUrl: string | null;
  emailFrom: string;
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** Webhook delivery (`WEBHOOK_*` variables, see webhooks/delivery-settings.ts). */
  webhooks: WebhookDeliverySettings;
  /** Abuse limits (`RATE_LIMIT_*`, `TRUST_PROXY_HOPS`, see core/limits/limit-settings.ts). */
  limits: LimitSettings;
  /** Sandbox mode, network credentials, bluesky PDS, telegram bot (see networks/network-settings.ts). */
  networks: NetworkSettings;
  /** `SANDBOX_LATENCY_MS`: how long each sandbox network call waits before it is answered (benchmarks; 0). */
  sandboxLatencyMs: number;
  /** `TOKEN_ENCRYPTION_KEY` and `TOKEN_ENCRYPTION_OLD_KEYS` (see core/crypto/load-token-cipher.ts). */
  tokenKeys: TokenKeySettings;
  /** `API_KEY`: fixes the development account's key on a fresh install instead of a random one. */
  devApiKey: string | null;
  /** `ADMIN_TOKEN` (accounts/admin/admin-settings.ts). */
  admin: AdminSettings;
  /** `METRICS_PORT` (core/observability/observability-settings.ts). */
  observability: ObservabilitySettings;
  /** Outbound requests: media downloads, network APIs (`OUTBOUND_*`, see core/outbound-settings.ts). */
  outbound: OutboundSettings;
  /** Jobs, inline publishing budget, media conversion (see publishing/publishing-settings.ts). */
  publishing: PublishingSettings;
  /** Scheduled analytics snapshots (analytics/analytics-settings.ts). */
  analytics: AnalyticsSettings;
  /** Background renewals, pre-flight, expiry notices (account-health/health-settings.ts). */
  accountHealth: AccountHealthSettings;
}

/** Throws a SettingsError (settings-schema.ts), whose message is one line naming the variable, on a bad value. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServiceConfig {
  const settings = parseSettings(env);
  const production = settings.NODE_ENV === 'production';
  const host = settings.HOST ?? '127.0.0.1';
  const port = settings.PORT ?? 8787;
  const publicUrl = (settings.PUBLIC_URL ?? `http://${host}:${port}`).replace(/\/+$/, '');
  const dataDir = settings.DATA_DIR ?? join(process.cwd(), 'data');
  return {
    production,
    host,
    port,
    publicUrl,
    linkingUrl: settings.LINKING_URL ?? `${publicUrl}/link`,
    dataDir,
    databaseFile: settings.DATABASE_FILE ?? join(dataDir, 'social-link.db'),
    databaseUrl: settings.DATABASE_URL ?? null,
    sqliteSynchronous: readSqliteSynchronous(env),
    sqliteMmapMb: settings.SQLITE_MMAP_MB ?? 0,
    smtpUrl: settings.SMTP_URL ?? null,
    emailFrom: settings.EMAIL_FROM ?? 'Social Link <no-reply@localhost>',
    maxBodyBytes: settings.MAX_BODY_BYTES ?? 16 * 1024,
    webhooks: readWebhookSettings(env),
    limits: readLimitSettings(env),
    networks: readNetworkSettings(env, production),
    sandboxLatencyMs: settings.SANDBOX_LATENCY_MS ?? 0,
    tokenKeys: readTokenKeySettings(env),
    devApiKey: production ? null : settings.API_KEY ?? null,
    admin: readAdminSettings(env),
    observability: readObservabilitySettings(env),
    outbound: readOutboundSettings(env),
    publishing: readPublishingSettings(env),
    analytics: readAnalyticsSettings(env),
    accountHealth: readAccountHealthSettings(env),
  };
}
