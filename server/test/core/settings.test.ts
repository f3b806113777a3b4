/**
 * Settings checked at start (server/src/settings-schema.ts): a bad value stops the real process with one line that
 * names the variable, exit code 1, no stack trace and nothing written; a secret's value is never printed; and the
 * README's settings table is the one the schema renders.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseSettings, SettingsError } from '../../src/settings-schema.js';
import { renderSettingsTable, withSettingsTable } from '../../../scripts/settings-table.js';

const SERVER = join(import.meta.dirname, '..', '..');
const README = join(SERVER, '..', 'README.md');

/** The service's entry point from source, in a fresh DATA_DIR that must stay uncreated. */
function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string; wrote: boolean }> {
  const parent = mkdtempSync(join(tmpdir(), 'slk-settings-'));
  const dataDir = join(parent, 'data');
  return new Promise((resolve) => {
    const clean = { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', ...env };
    const made = () => existsSync(env.DATA_DIR ?? dataDir);
    execFile(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: SERVER, env: clean, timeout: 20_000 }, (error, stdout, stderr) => {
      const wrote = made();
      rmSync(parent, { recursive: true, force: true });
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr, stdout, wrote });
    });
  });
}

describe('settings at start', () => {
  for (const [env, line] of [
    [{ PORT: 'abc' }, 'social-link-kit: PORT: expected port number 0-65535, got "abc".'],
    [{ SANDBOX_NETWORKS: 'of' }, 'social-link-kit: SANDBOX_NETWORKS: expected `auto`, `all`, `off`, got "of".'],
    [{ NODE_ENV: 'production' }, 'social-link-kit: TOKEN_ENCRYPTION_KEY: required when NODE_ENV=production (base64 of 32 bytes: `openssl rand -base64 32`).'],
    [{ ADMIN_TOKEN: 'too-short-secret' }, 'social-link-kit: ADMIN_TOKEN: expected text of 24+ characters, got a secret, its value not shown.'],
  ] as const) {
    it(`${Object.entries(env)[0]!.join('=')}: one line, exit 1, nothing written`, async () => {
      const result = await start(env);
      assert.equal(result.code, 1);
      assert.equal(result.stderr, `${line}\n`);
      assert.equal(result.stdout, '');
      assert.equal(result.wrote, false, 'DATA_DIR was not created');
    });
  }

  it('a DATA_DIR that cannot be made: one line, exit 1', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'slk-settings-'));
    const file = join(parent, 'a-file');
    writeFileSync(file, '');
    try {
      const result = await start({ DATA_DIR: join(file, 'data') });
      assert.equal(result.code, 1);
      assert.equal(result.stderr, 'social-link-kit: DATA_DIR cannot be created or used (ENOTDIR): set it to a writable folder.\n');
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it('checks types, allowed values and pairs; a secret never appears in the message', () => {
    const error = (env: NodeJS.ProcessEnv) => {
      try {
        parseSettings(env);
      } catch (caught) {
        assert.ok(caught instanceof SettingsError);
        return caught.message;
      }
      return null;
    };
    assert.equal(error({}), null);
    assert.equal(error({ PORT: '', JOBS_POLL_MS: '' }), null, 'empty counts as unset');
    assert.match(error({ PORT: '70000' })!, /^PORT:/);
    assert.match(error({ JOBS_POLL_MS: '-5' })!, /^JOBS_POLL_MS: expected number > 0/);
    assert.match(error({ PUBLIC_URL: 'ftp://x' })!, /^PUBLIC_URL: expected http\(s\) URL/);
    assert.match(error({ ANALYTICS_SNAPSHOTS: 'no' })!, /^ANALYTICS_SNAPSHOTS:/);
    const key = 'c2VjcmV0LXRoYXQtaXMtbm90LTMyLWJ5dGVz';
    const message = error({ TOKEN_ENCRYPTION_KEY: key })!;
    assert.match(message, /^TOKEN_ENCRYPTION_KEY:/);
    assert.ok(!message.includes(key));
    assert.match(error({ DATABASE_URL: 'mysql://u:hunter2@h/db' })!, /^DATABASE_URL:(?!.*hunter2)/);
    assert.match(error({ TWITTER_CLIENT_ID: 'x' })!, /^TWITTER_CLIENT_SECRET: required/);
    assert.equal(error({ AZURE_CLIENT_ID: 'x' }), null, "another program's variable is not the service's");
    assert.match(error({ MEDIA_S3_ENDPOINT: 'https://s3.example.test', MEDIA_S3_BUCKET: 'b' })!, /^MEDIA_S3_ACCESS_KEY_ID, MEDIA_S3_SECRET_ACCESS_KEY: required/);
    assert.equal(parseSettings({ SQLITE_SYNCHRONOUS: ' FULL ' }).SQLITE_SYNCHRONOUS, 'full');
  });

  it("the README's settings table is the schema's (node --import tsx scripts/write-settings-table.ts)", () => {
    const readme = readFileSync(README, 'utf8');
    assert.ok(readme.includes(renderSettingsTable()), 'README.md settings table is stale: run node --import tsx scripts/write-settings-table.ts');
    assert.equal(withSettingsTable(readme), readme);
    assert.notEqual(withSettingsTable(readme.replace('| `PORT` |', '| `PORT_X` |')), readme.replace('| `PORT` |', '| `PORT_X` |'), 'a stale table is rewritten');
  });
});
