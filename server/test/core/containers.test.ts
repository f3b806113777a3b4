/**
 * Docker cannot build here (no daemon), so the container files are checked by rule: a multi-stage Dockerfile on
 * Node 20 whose runtime stage runs as a non-root user with a readiness health check, and a compose file whose
 * service waits for a healthy PostgreSQL and refuses to start without its secrets. README "Containers" has the
 * manual check (`docker compose up`, then /ready).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (name: string) => readFileSync(join(root, name), 'utf8');

describe('container files', () => {
  it('Dockerfile: multi-stage, Node 20, non-root runtime, health check on /ready', () => {
    const lines = read('Dockerfile').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const froms = lines.filter((line) => line.startsWith('FROM '));
    assert.ok(froms.length >= 2, 'multi-stage');
    for (const from of froms) assert.match(from, /^FROM node:20\.\d+-bookworm-slim AS \w+$/);
    const runtime = lines.slice(lines.lastIndexOf(froms.at(-1)!));
    const user = runtime.filter((line) => line.startsWith('USER ')).at(-1);
    assert.ok(user && !/root|\b0\b/.test(user), 'the runtime stage runs as a non-root user');
    assert.ok(runtime.some((line) => line.startsWith('HEALTHCHECK') && line.includes('/ready')));
    assert.ok(!runtime.some((line) => /^RUN npm (ci|install)\b/.test(line)), 'no install in the runtime stage');
    assert.ok(!lines.some((line) => /^ADD\s+https?:/.test(line)), 'no remote ADD');
    assert.ok(!lines.some((line) => /^ENV .*(TOKEN|KEY|PASSWORD|SECRET)/.test(line)), 'no secret baked into the image');
    assert.match(runtime.at(-1)!, /^CMD \["node", "--import", "tsx", "server\/src\/main\.ts"\]$/);
  });

  it('compose.yaml: PostgreSQL with a health check, the service waits for it, secrets are required', () => {
    const compose = read('compose.yaml');
    assert.match(compose, /image: postgres:\d+/);
    assert.match(compose, /pg_isready/);
    assert.match(compose, /condition: service_healthy/);
    for (const secret of ['TOKEN_ENCRYPTION_KEY', 'ADMIN_TOKEN', 'POSTGRES_PASSWORD']) {
      assert.match(compose, new RegExp(`\\$\\{${secret}:\\?`), `${secret} is required, never defaulted`);
    }
    assert.match(compose, /DATABASE_URL: postgres:\/\/.*@db:5432\//);
    assert.doesNotMatch(compose, /\t/, 'YAML is indented with spaces');
    // Every variable the service is given is one the service reads.
    const config = ['src/config.ts', 'src/networks/network-settings.ts', 'src/accounts/admin/admin-settings.ts', 'src/core/crypto/load-token-cipher.ts'].map((f) => read(join('server', f))).join('\n');
    const serviceBlock = compose.slice(compose.indexOf('  service:'));
    for (const [, name] of serviceBlock.matchAll(/^\s{6}([A-Z_]+):/gm)) assert.ok(config.includes(`env.${name}`), `${name} is read by the service`);
  });

  it('.dockerignore keeps local state and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'data', '.env', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});
