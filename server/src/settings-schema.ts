/**
 * @module
 * Every environment variable the service reads, in one zod schema: its allowed values, its default and what it does
 * (the schema's metadata, from which scripts/write-settings-table.ts writes the README's settings table). config.ts
 * parses the environment with it before anything is opened or written; a bad value stops the start with one line
 * that names the variable (never a secret's value). The feature modules' `read…Settings(env)` then apply defaults
 * to values this schema has already checked.
 */
import { z } from 'zod';
import { NETWORKS } from '@social-link-kit/protocol';

export interface SettingMeta {
  /** The allowed values, as the README and the error line say them. */
  allowed: string;
  default: string;
  doc: string;
  /** Its value is never printed. */
  secret?: boolean;
}

/** A variable: its value's check, and what the table and the error line say about it. */
function setting<T extends z.ZodType<unknown, string>>(schema: T, allowed: string, meta: Omit<SettingMeta, 'allowed'>): z.ZodOptional<T> {
  return z.optional(schema).meta({ allowed, ...meta } satisfies SettingMeta);
}

const digits = z.string().regex(/^\d+$/).transform(Number);
const port = (meta: Omit<SettingMeta, 'allowed'>) => setting(digits.pipe(z.number().max(65535)), 'port number 0-65535', meta);
const count = (meta: Omit<SettingMeta, 'allowed'>) => setting(digits.pipe(z.number().int().min(0)), 'whole number ≥ 0', meta);
const positive = (meta: Omit<SettingMeta, 'allowed'>) =>
  setting(z.string().regex(/^\d+(\.\d+)?$/).transform(Number).pipe(z.number().positive()), 'number > 0', meta);
const oneOf = <const T extends readonly [string, ...string[]]>(values: T, meta: Omit<SettingMeta, 'allowed'>) =>
  setting(z.enum(values), values.map((v) => `\`${v}\``).join(', '), meta);
const flag = (meta: Omit<SettingMeta, 'allowed'>) => oneOf(['0', '1'], meta);
const urlOf = (protocols: string[], allowed: string, meta: Omit<SettingMeta, 'allowed'>) =>
  setting(
    z.string().refine((value) => URL.canParse(value) && protocols.includes(new URL(value).protocol)),
    allowed,
    meta,
  );
const httpUrl = (meta: Omit<SettingMeta, 'allowed'>) => urlOf(['http:', 'https:'], 'http(s) URL', meta);
const text = (meta: Omit<SettingMeta, 'allowed'>) => setting(z.string(), 'text', meta);
const isKey = (value: string) => /^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) && Buffer.from(value, 'base64').length === 32;

export const settingsSchema = z.object({
  NODE_ENV: oneOf(['development', 'production', 'test'], {
    default: '`development`',
    doc: '`production`: the sandbox is off unless `SANDBOX_NETWORKS` names it, no development account or API key is written, and `TOKEN_ENCRYPTION_KEY` is required.',
  }),
  HOST: text({ default: '`127.0.0.1`', doc: 'Address to listen on (`0.0.0.0` in the container image).' }),
  PORT: port({ default: '`8787`', doc: 'Port to listen on; `0` takes any free port.' }),
  PUBLIC_URL: httpUrl({ default: '`http://{HOST}:{PORT}`', doc: 'Public base address of the service, as browsers and networks reach it.' }),
  LINKING_URL: httpUrl({ default: '`{PUBLIC_URL}/link`', doc: 'Address of the hosted linking page.' }),
  DATA_DIR: text({ default: '`./data`', doc: 'Folder for the SQLite file, media copies and key files; created when missing.' }),
  DATABASE_FILE: text({ default: '`{DATA_DIR}/social-link.db`', doc: 'SQLite file (when `DATABASE_URL` is not set).' }),
  DATABASE_URL: urlOf(['postgres:', 'postgresql:'], 'postgres:// URL', { default: 'none (SQLite)', doc: 'PostgreSQL instead of SQLite.', secret: true }),
  SQLITE_SYNCHRONOUS: setting(z.string().trim().toLowerCase().pipe(z.enum(['mixed', 'full', 'normal'])), '`mixed`, `full`, `normal`', {
    default: '`mixed`',
    doc: 'What an answered SQLite write survives: `mixed` answers every write but a link-session create after an fsync of the WAL (off the event loop, shared by the commits waiting at once), `full` every write, `normal` none (fsyncs at checkpoints; see "Storage, scale and abuse limits").',
  }),
  SQLITE_MMAP_MB: count({
    default: '`0` (off)',
    doc: 'Megabytes of the SQLite file read through a memory map instead of read calls (SQLite caps it at 2,048). For a large file read at random (one profile with hundreds of thousands of posts in one duplicate window): the mapped pages count in the process\'s RSS.',
  }),
  SMTP_URL: urlOf(['smtp:', 'smtps:'], 'smtp(s):// URL', { default: 'none', doc: 'SMTP server for link emails; without it emails report `emailSent: false`.', secret: true }),
  EMAIL_FROM: text({ default: '`Social Link <no-reply@localhost>`', doc: 'Sender of link emails.' }),
  MAX_BODY_BYTES: count({ default: '`16384`', doc: 'Largest accepted request body.' }),
  API_KEY: text({ default: 'random', doc: 'Development only: fixes the development account key on a fresh install (ignored in production).', secret: true }),
  ADMIN_TOKEN: setting(z.string().min(24), 'text of 24+ characters', { default: 'none (admin API off)', doc: 'Bearer token of the operator API under `/admin/api` and of `/metrics`.', secret: true }),
  METRICS_PORT: port({ default: 'none (`/metrics` on the main port)', doc: 'Serve `/metrics` on its own port instead.' }),
  TOKEN_ENCRYPTION_KEY: setting(z.string().refine(isKey), 'base64 of 32 bytes', {
    default: 'required in production; in development a key file in `DATA_DIR`',
    doc: 'Seals provider tokens, the signing key and webhook secrets (`openssl rand -base64 32`).',
    secret: true,
  }),
  TOKEN_ENCRYPTION_OLD_KEYS: setting(z.string().refine((v) => v.split(',').filter(Boolean).every(isKey)), 'comma-separated base64 keys of 32 bytes', {
    default: 'none',
    doc: 'Earlier keys that still open older values (key rotation).',
    secret: true,
  }),
  SANDBOX_NETWORKS: oneOf(['auto', 'all', 'off'], {
    default: '`auto`; `off` when `NODE_ENV=production`',
    doc: '`auto`: sandbox networks for the networks without credentials; `all`: every network sandboxed; `off`: none (a network without credentials is not offered).',
  }),
  SANDBOX_LATENCY_MS: count({
    default: '`0`',
    doc: 'Each sandbox network API call waits this long before it is answered, as a real network would (publishing benchmarks).',
  }),
  NETWORK_USER_AGENT: text({ default: '`social-link-kit/0.1 (account linking)`', doc: 'User-Agent sent to networks.' }),
  BLUESKY_PDS_URL: httpUrl({ default: 'none', doc: 'Bluesky PDS for app-password links.' }),
  TELEGRAM_BOT_USERNAME: text({ default: 'none', doc: 'The Telegram bot users add to their channels.' }),
  TELEGRAM_BOT_TOKEN: text({ default: 'none', doc: "The Telegram bot's token.", secret: true }),
  TELEGRAM_WEBHOOK_SECRET: text({ default: 'none', doc: 'Checks the Telegram webhook calls.', secret: true }),
  RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE: count({ default: '`120`', doc: 'Link-token uses per client IP per minute.' }),
  RATE_LIMIT_SESSION_CREATE_PER_MINUTE: count({ default: '`300`', doc: 'Link sessions created per API key per minute.' }),
  RATE_LIMIT_CONNECT_STARTS_PER_SESSION: count({ default: '`20`', doc: "Connection attempts over a session's life." }),
  POST_CREATE_LOOP_SHARE: setting(z.string().regex(/^\d+(\.\d+)?$/).transform(Number).pipe(z.number().max(100)), 'number 0-100', {
    default: '`10`',
    doc: "While the event loop is saturated and other requests keep arriving, `POST /api/post` starts at a pace that keeps its share of the loop's busy time at this percentage; the rest wait in a queue, first in first out per API key (with room to spare on the loop, or nothing else arriving, posts are created as fast as they come). `0` turns it off.",
  }),
  POST_CREATE_QUEUE_MAX: count({ default: '`1000`', doc: '`POST /api/post` requests waiting at once (see `POST_CREATE_LOOP_SHARE`) past which one is answered 429 (code 510, `Retry-After`); `0` answers 429 instead of queueing.' }),
  TRUST_PROXY_HOPS: count({ default: '`0`', doc: 'Proxies in front that add `X-Forwarded-For` (0 ignores the header).' }),
  JOBS_POLL_MS: positive({ default: '`250`', doc: 'How often the job worker looks for due jobs.' }),
  JOBS_LEASE_MS: positive({ default: '`10000`', doc: 'How long a claimed job is held before another instance may take it (renewed every third of it while the job runs): how late a crashed instance’s work starts elsewhere.' }),
  JOBS_BATCH_SIZE: positive({ default: '`32`', doc: 'Jobs per claim; claims repeat until `JOBS_MAX_IN_FLIGHT` jobs are held.' }),
  JOBS_MAX_IN_FLIGHT: positive({ default: '`512`', doc: 'Jobs one instance runs at once (mostly waiting on networks).' }),
  JOBS_MAX_IN_FLIGHT_PER_NETWORK: positive({ default: '`128`', doc: 'Jobs of one network run at once, so one slow network cannot take every place.' }),
  JOBS_MAX_LOOP_LAG_MS: positive({ default: '`100`', doc: "The job worker claims nothing while the event loop's mean lag is above this (ms), so the jobs in hand finish in time." }),
  JOBS_MAX_ATTEMPTS: positive({ default: '`8`', doc: 'Attempts before a job fails for good.' }),
  JOBS_RETRY_BASE_MS: positive({ default: '`5000`', doc: 'First retry delay (doubling).' }),
  JOBS_RETRY_MAX_MS: positive({ default: '`900000`', doc: 'Longest retry delay.' }),
  JOBS_KEEP_FINISHED_MS: positive({ default: '`604800000`', doc: 'Finished jobs are deleted this long after.' }),
  PUBLISH_INLINE_BUDGET_MS: positive({ default: '`20000`', doc: 'How long a publish request waits for the networks before answering `pending`.' }),
  PUBLISH_FIRST_COMMENT_DELAY_MS: count({ default: '`20000`', doc: 'How long after its post a first comment is sent (an immediate post’s answer waits for it).' }),
  PUBLISH_TEST_CRASH_AT: text({ default: 'none', doc: 'Tests only: stops the process at a named publishing step.' }),
  MEDIA_CONVERSION_WORKERS: count({ default: 'the CPU cores', doc: 'Image conversion threads.' }),
  MEDIA_SIGNING_KEY: text({ default: 'a key file in `DATA_DIR/media`', doc: 'Signs media URLs (set it when several instances serve media).', secret: true }),
  MEDIA_STOCK_BASE_URL: httpUrl({ default: "the sandbox media host's", doc: 'Stock-image provider serving `<id>.jpg`.' }),
  UNSPLASH_ACCESS_KEY: text({ default: 'none (the sandbox Unsplash)', doc: 'Access key of the Unsplash app the `unsplash` post field uses.', secret: true }),
  UNSPLASH_API_URL: httpUrl({ default: "Unsplash's API with a key, else the sandbox's", doc: 'Base URL of the Unsplash API.' }),
  MEDIA_S3_ENDPOINT: httpUrl({ default: 'none (media in `DATA_DIR/media`)', doc: 'S3-compatible store for media copies; needs the three below.' }),
  MEDIA_S3_BUCKET: text({ default: 'none', doc: 'S3 bucket.' }),
  MEDIA_S3_REGION: text({ default: '`us-east-1`', doc: 'S3 region.' }),
  MEDIA_S3_ACCESS_KEY_ID: text({ default: 'none', doc: 'S3 access key id.' }),
  MEDIA_S3_SECRET_ACCESS_KEY: text({ default: 'none', doc: 'S3 secret key.', secret: true }),
  MEDIA_S3_PREFIX: text({ default: 'empty', doc: 'Key prefix in the bucket.' }),
  WEBHOOK_CA_FILE: text({ default: 'none', doc: 'Extra CA certificates (PEM file) trusted for webhook targets.' }),
  WEBHOOK_POLL_MS: positive({ default: '`1000`', doc: 'How often the delivery worker looks for due deliveries.' }),
  WEBHOOK_TIMEOUT_MS: positive({ default: '`10000`', doc: 'Timeout of one delivery.' }),
  WEBHOOK_RETRY_BASE_MS: positive({ default: '`5000`', doc: 'First retry delay (doubling).' }),
  WEBHOOK_RETRY_MAX_MS: positive({ default: '`3600000`', doc: 'Longest retry delay.' }),
  WEBHOOK_MAX_ATTEMPTS: positive({ default: '`25`', doc: 'Attempts before a delivery is given up.' }),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag({ default: '`0`', doc: '`1` allows webhook targets on private addresses.' }),
  WEBHOOK_OUTBOX_RETENTION_DAYS: positive({ default: '`7`', doc: 'Delivered webhooks are kept this many days.' }),
  OUTBOUND_ALLOW_PRIVATE_TARGETS: flag({ default: '`0`', doc: '`1` allows media downloads and network calls to private addresses.' }),
  OUTBOUND_TIMEOUT_MS: positive({ default: '`30000`', doc: 'Timeout of an outbound request.' }),
  OUTBOUND_MAX_BYTES: positive({ default: '`104857600`', doc: 'Largest outbound download.' }),
  ANALYTICS_SNAPSHOTS: oneOf(['on', 'off'], { default: '`on`', doc: '`off` stops the scheduled analytics snapshots.' }),
  ACCOUNT_HEALTH_CHECKS: oneOf(['on', 'off'], { default: '`on`', doc: '`off` stops the background renewals, identity checks, pre-flight and expiry notices ("Account health").' }),
  ACCOUNT_HEALTH_SWEEP_MS: positive({ default: '`60000`', doc: 'How often (service clock) the sweep looks for accounts whose time came and scheduled posts to pre-flight.' }),
  PREFLIGHT_MINUTES: positive({ default: '`30`', doc: 'How long before a scheduled post is due its accounts are checked (and a needed relink reported).' }),
  ACCOUNT_EXPIRING_DAYS: positive({ default: '`7`', doc: 'How long before a known expiry the service cannot renew by itself `account.expiring` is sent.' }),
});

/**
 * `<NETWORK>_CLIENT_ID` / `_CLIENT_SECRET` pairs: not one name each, so checked beside the schema, and only for the
 * networks' own prefixes (a host's environment can hold other `…_CLIENT_ID` variables).
 */
export const CLIENT_CREDENTIALS = new RegExp(`^(${NETWORKS.map((n) => n.toUpperCase()).join('|')})_CLIENT_(ID|SECRET)$`);
export const CLIENT_CREDENTIALS_META: SettingMeta = {
  allowed: 'text, in pairs',
  default: 'none',
  doc: "`<NETWORK>_CLIENT_ID` and `<NETWORK>_CLIENT_SECRET` (e.g. `TWITTER_…`, `FACEBOOK_…` for instagram): the network's OAuth app; one without the other is refused.",
  secret: true,
};

/** `<NETWORK>_API_BASE_URL`: real accounts of that network are called there instead of its public API base. */
export const API_BASE_URL = new RegExp(`^(${NETWORKS.map((n) => n.toUpperCase()).join('|')})_API_BASE_URL$`);
export const API_BASE_URL_META: SettingMeta = {
  allowed: 'http(s) URL',
  default: "the network's public API",
  doc: "`<NETWORK>_API_BASE_URL` (e.g. `LINKEDIN_API_BASE_URL`): where that network's real accounts are called (an egress proxy, a recorded stand-in); the guarded fetch allows its origin.",
};

export type Settings = z.output<typeof settingsSchema>;

/** A setting that stops the start: its message is the one line printed. */
export class SettingsError extends Error {}

/** The environment checked against the schema (empty values count as unset), or a SettingsError naming the variable. */
export function parseSettings(env: NodeJS.ProcessEnv): Settings {
  const given = Object.fromEntries(Object.keys(settingsSchema.shape).flatMap((name) => (env[name] ? [[name, env[name]]] : [])));
  const parsed = settingsSchema.safeParse(given);
  if (!parsed.success) {
    const name = String(parsed.error.issues[0]!.path[0]);
    const meta = settingMeta(name);
    const shown = meta.secret ? 'a secret, its value not shown' : JSON.stringify(env[name]);
    throw new SettingsError(`${name}: expected ${meta.allowed}, got ${shown}.`);
  }
  const settings = parsed.data;
  for (const name of Object.keys(env)) {
    const [, prefix, part] = CLIENT_CREDENTIALS.exec(name) ?? [];
    const other = `${prefix}_CLIENT_${part === 'ID' ? 'SECRET' : 'ID'}`;
    if (prefix && env[name] && !env[other]) throw new SettingsError(`${other}: required because ${name} is set (a network needs both).`);
  }
  for (const name of Object.keys(env)) {
    const value = env[name];
    if (API_BASE_URL.test(name) && value && !/^https?:\/\/[^/]/.test(value)) throw new SettingsError(`${name}: expected ${API_BASE_URL_META.allowed}, got ${JSON.stringify(value)}.`);
  }
  if (settings.MEDIA_S3_ENDPOINT) {
    const missing = (['MEDIA_S3_BUCKET', 'MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'] as const).filter((name) => !settings[name]);
    if (missing.length > 0) throw new SettingsError(`${missing.join(', ')}: required because MEDIA_S3_ENDPOINT is set.`);
  }
  if (settings.NODE_ENV === 'production' && !settings.TOKEN_ENCRYPTION_KEY) {
    throw new SettingsError('TOKEN_ENCRYPTION_KEY: required when NODE_ENV=production (base64 of 32 bytes: `openssl rand -base64 32`).');
  }
  return settings;
}

export function settingMeta(name: string): SettingMeta {
  const schema = settingsSchema.shape[name as keyof typeof settingsSchema.shape];
  return schema.meta() as unknown as SettingMeta;
}
