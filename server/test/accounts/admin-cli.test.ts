/**
 * The real `social-link-admin` as a child process on a real database (a SQLite file, or a fresh PostgreSQL
 * database under scripts/with-postgres.sh), checked through the service's own API on the same database.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readConfig } from '../../src/config.js';
import { createTokenCipher, tokenAad } from '../../src/core/crypto/token-cipher.js';
import { startService, type RunningService } from '../../src/server.js';
import { freshDatabase } from '../support/fresh-database.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'social-link-admin.mjs');

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, any>;
}

describe('social-link-admin CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'slk-admin-'));
  const tokenKey = randomBytes(32);
  let env: NodeJS.ProcessEnv;
  let dropDatabase = async () => {};
  let service: RunningService;

  function cli(...args: string[]): Promise<CliResult> {
    return new Promise((resolve) => {
      execFile(process.execPath, [BIN, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: number }).code ?? 1) : 0;
        let json: Record<string, any> = {};
        try {
          json = JSON.parse(code === 0 ? stdout : stderr);
        } catch {
          // usage errors are text
        }
        resolve({ code, stdout, stderr, json });
      });
    });
  }

  before(async () => {
    env = { DATA_DIR: dir, HOST: '127.0.0.1', PORT: '0', TOKEN_ENCRYPTION_KEY: tokenKey.toString('base64'), SANDBOX_NETWORKS: 'off' };
    if (process.env.TEST_DATABASE_URL) {
      const database = await freshDatabase('slk_admin');
      env.DATABASE_URL = database.url;
      dropDatabase = database.drop;
    }
    service = await startService({ config: readConfig(env) });
  });
  after(async () => {
    await service.close();
    await dropDatabase();
    rmSync(dir, { recursive: true, force: true });
  });

  const user = (apiKey: string) => fetch(`${service.url}/api/user`, { headers: { Authorization: `Bearer ${apiKey}` } });

  it('creates an account whose API key (shown once, stored hashed) works on the API; rotating it stops the old one', async () => {
    const created = await cli('accounts', 'create', '--name', 'Acme', '--plan', 'business', '--add-on', 'max-pack', '--domain', 'acme', '--origin', 'https://app.acme.test');
    assert.equal(created.code, 0, created.stderr);
    const { account, apiKey } = created.json;
    assert.match(apiKey, /^sk_/);
    assert.equal(account.plan, 'business');
    assert.deepEqual(account.addOns, ['max-pack']);
    assert.deepEqual(account.allowedOrigins, ['https://app.acme.test']);
    assert.equal((await user(apiKey)).status, 200);

    const listed = await cli('accounts', 'list');
    assert.ok(!listed.stdout.includes(apiKey), 'the key is never listed');
    assert.ok(listed.json.accounts.some((a: { id: string }) => a.id === account.id));

    const rotated = await cli('keys', 'rotate', account.id);
    assert.equal(rotated.code, 0, rotated.stderr);
    assert.notEqual(rotated.json.apiKey, apiKey);
    assert.equal((await user(apiKey)).status, 401);
    assert.equal((await user(rotated.json.apiKey)).status, 200);
  });

  it('sets plan, add-ons, domains, origins, instagram method, branding and the twitter policy', async () => {
    const { json } = await cli('accounts', 'create', '--name', 'Beta');
    const id = json.account.id as string;
    assert.equal(json.account.plan, 'free');
    assert.equal((await cli('plan', 'set', id, 'enterprise')).json.account.plan, 'enterprise');
    assert.deepEqual((await cli('add-ons', 'set', id, 'max-pack')).json.account.addOns, ['max-pack']);
    assert.deepEqual((await cli('add-ons', 'set', id)).json.account.addOns, []);
    assert.deepEqual((await cli('domains', 'set', id, 'beta', 'beta-eu')).json.account.domains, ['beta', 'beta-eu']);
    assert.deepEqual((await cli('origins', 'set', id, 'https://a.beta.test', 'com.beta.app:/linked')).json.account.allowedOrigins, [
      'https://a.beta.test',
      'com.beta.app:/linked',
    ]);
    assert.equal((await cli('instagram-method', 'set', id, 'facebook')).json.account.instagramLinkMethod, 'facebook');
    assert.deepEqual((await cli('branding', 'set', id, '--name', 'Beta Inc', '--color', '#112233')).json.account.branding, {
      name: 'Beta Inc',
      color: '#112233',
    });
    assert.equal((await cli('branding', 'clear', id)).json.account.branding, null);
    assert.equal((await cli('twitter-policy', 'set', id, 'service-app')).json.account.twitterCredentialsPolicy, 'service-app');
    const shown = await cli('accounts', 'show', id);
    assert.equal(shown.json.account.plan, 'enterprise');
    assert.equal(shown.json.account.instagramLinkMethod, 'facebook');
  });

  it('refuses bad input with the error envelope and exit code 1, and usage errors with exit code 2', async () => {
    const { json } = await cli('accounts', 'create', '--name', 'Gamma');
    const id = json.account.id as string;
    for (const args of [
      ['plan', 'set', id, 'gold'],
      ['add-ons', 'set', id, 'mega-pack'],
      ['domains', 'set', id],
      ['domains', 'set', id, 'Not A Domain'],
      ['origins', 'set', id, 'http://public.example'],
      ['instagram-method', 'set', id, 'myspace'],
      ['branding', 'set', id, '--logo-url', 'http://insecure.example/logo.png'],
      ['branding', 'set', id, '--color', 'red'],
      ['twitter-policy', 'set', id, 'anything'],
      ['quota', 'set', json.account.primaryProfile.id, 'lots'],
      ['plan', 'set', 'acct_missing', 'free'],
      ['accounts', 'create'],
    ]) {
      const result = await cli(...args);
      assert.equal(result.code, 1, `${args.join(' ')}: ${result.stdout}`);
      assert.equal(result.json.status, 'error', args.join(' '));
      assert.equal(result.json.code, 101, args.join(' '));
      assert.ok(result.json.message, args.join(' '));
    }
    assert.equal((await cli('accounts', 'frobnicate')).code, 2);
    assert.equal((await cli()).code, 2);
    assert.equal((await cli('--help')).code, 0);
  });

  it('sets a profile monthly post quota and lists linked accounts with their token state', async () => {
    const { json } = await cli('accounts', 'create', '--name', 'Delta');
    const id = json.account.id as string;
    const profile = json.account.primaryProfile as { id: string; refId: string };
    const quota = await cli('quota', 'set', profile.refId, '250');
    assert.equal(quota.code, 0, quota.stderr);
    assert.deepEqual({ profileId: quota.json.profileId, monthlyPostQuota: quota.json.monthlyPostQuota }, { profileId: profile.id, monthlyPostQuota: 250 });

    // Linked accounts as the connect flows store them: tokens sealed with the service's key.
    const cipher = createTokenCipher([tokenKey]);
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const seal = (platform: string, tokens: object) => cipher.encrypt(JSON.stringify(tokens), tokenAad(profile.id, platform, `${platform}-user`));
    const rows: [string, string | null][] = [
      ['twitter', seal('twitter', { accessToken: 'at-secret-1', refreshToken: null, expiresIn: 86_400, obtainedAt: now })],
      ['youtube', seal('youtube', { accessToken: 'at-secret-2', refreshToken: 'rt-secret', expiresIn: 3600, obtainedAt: now - day })],
      ['linkedin', seal('linkedin', { accessToken: 'at-secret-3', refreshToken: null, expiresIn: 3600, obtainedAt: now - day })],
      ['facebook', seal('facebook', { accessToken: 'at-secret-4', refreshToken: null, expiresIn: 60 * 86_400, obtainedAt: now })],
      ['reddit', createTokenCipher([randomBytes(32)]).encrypt('{}', tokenAad(profile.id, 'reddit', 'reddit-user'))],
      ['telegram', null],
    ];
    for (const [platform, sealed] of rows) {
      await service.storage.driver.run(
        'INSERT INTO social_accounts (profile_id, platform, network_user_id, display_name, username, tokens_encrypted, linked_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [profile.id, platform, `${platform}-user`, `${platform} name`, null, sealed, now - day],
      );
    }
    const listed = await cli('linked', 'list', id);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!/secret/.test(listed.stdout), 'no token is printed');
    const primary = listed.json.profiles.find((p: { isPrimary: boolean }) => p.isPrimary);
    assert.equal(primary.monthlyPostQuota, 250);
    const states = Object.fromEntries(primary.linkedAccounts.map((a: { platform: string; state: string }) => [a.platform, a.state]));
    assert.deepEqual(states, { twitter: 'expiring', youtube: 'expired', linkedin: 'needs relink', facebook: 'ok', reddit: 'needs relink', telegram: 'ok' });

    const reset = await cli('quota', 'set', profile.id, 'default');
    assert.equal(reset.json.monthlyPostQuota, null);
  });
});
