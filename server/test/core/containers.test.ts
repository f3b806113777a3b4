/**
 * Docker cannot build here (no daemon), so the container files are checked by a Dockerfile linter
 * (dockerfile-utils, the one behind the editors' Dockerfile support), a YAML parser, and by rule: a multi-stage Dockerfile on
 * Node 24 LTS whose runtime stage runs the built JavaScript (no tsx) runs as a non-root user with a readiness health check, and a compose file whose
 * service waits for a healthy PostgreSQL and refuses to start without its secrets. README "Containers" has the
 * manual check (`docker compose up`, then /ready).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { settingsSchema } from '../../src/settings-schema.js';

const root = join(import.meta.dirname, '..', '..', '..');
const read = (name: string) => readFileSync(join(root, name), 'utf8');

describe('container files', () => {
  it('the Dockerfile linter finds nothing in the Dockerfile, and does find faults in a broken one', () => {
    const problems = validate(read('Dockerfile')).map((diagnostic) => `${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
    assert.deepEqual(problems, []);
    // The linter can fail: the same file with a port typo and a COPY without its target is refused.
    const broken = read('Dockerfile').replace('EXPOSE 8787', 'EXPOSE 87a87').replace('COPY demo/package.json demo/', 'COPY demo/package.json');
    assert.equal(validate(broken).length, 2);
  });

  it('every file the build stage copies from the context exists and is not dockerignored', () => {
    const ignored = read('.dockerignore').split('\n').filter(Boolean);
    const copies = read('Dockerfile').split('\n').filter((line) => line.startsWith('COPY ') && !line.includes('--from='));
    assert.ok(copies.length >= 3);
    for (const copy of copies) {
      const sources = copy.split(/\s+/).slice(1, -1);
      for (const source of sources.filter((s) => s !== '.')) {
        assert.ok(existsSync(join(root, source)), `${source} exists`);
        assert.ok(!ignored.includes(source) && !ignored.includes(source.split('/')[0]!), `${source} is in the build context`);
      }
    }
  });

  it('Dockerfile: multi-stage, Node 24, non-root runtime, health check on /ready', () => {
    const lines = read('Dockerfile').split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    const froms = lines.filter((line) => line.startsWith('FROM '));
    assert.ok(froms.length >= 2, 'multi-stage');
    for (const from of froms) assert.match(from, /^FROM node:24(\.\d+)*-bookworm-slim AS \w+$/);
    const runtime = lines.slice(lines.lastIndexOf(froms.at(-1)!));
    const user = runtime.filter((line) => line.startsWith('USER ')).at(-1);
    assert.ok(user && !/root|\b0\b/.test(user), 'the runtime stage runs as a non-root user');
    assert.ok(runtime.some((line) => line.startsWith('HEALTHCHECK') && line.includes('/ready')));
    assert.ok(!runtime.some((line) => /^RUN npm (ci|install)\b/.test(line)), 'no install in the runtime stage');
    assert.ok(!lines.some((line) => /^ADD\s+https?:/.test(line)), 'no remote ADD');
    assert.ok(!lines.some((line) => /^ENV .*(TOKEN|KEY|PASSWORD|SECRET)/.test(line)), 'no secret baked into the image');
    assert.match(runtime.at(-1)!, /^CMD \["node", "server\/dist\/main\.js"\]$/);
    assert.ok(!runtime.some((line) => line.includes('tsx') || line.includes('/app/src')), 'the runtime stage has no TypeScript loader or source');
  });

  it('compose.yaml: PostgreSQL with a health check, the service waits for it, secrets are required', () => {
    const compose = read('compose.yaml');
    const parsed = parse(compose) as {
      services: Record<string, { image?: string; build?: string; depends_on?: Record<string, { condition: string }>; healthcheck?: { test: string[] }; ports?: string[] }>;
      volumes: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(parsed.services).sort(), ['db', 'service']);
    assert.equal(parsed.services.service!.build, '.');
    assert.deepEqual(parsed.services.service!.depends_on, { db: { condition: 'service_healthy' } });
    assert.match(parsed.services.db!.healthcheck!.test.join(' '), /pg_isready/);
    for (const port of parsed.services.service!.ports ?? []) assert.match(port, /^127\.0\.0\.1:/, 'published on loopback only');
    assert.deepEqual(Object.keys(parsed.volumes).sort(), ['db-data', 'service-data']);
    assert.match(compose, /image: postgres:\d+/);
    assert.match(compose, /pg_isready/);
    assert.match(compose, /condition: service_healthy/);
    for (const secret of ['TOKEN_ENCRYPTION_KEY', 'ADMIN_TOKEN', 'POSTGRES_PASSWORD']) {
      assert.match(compose, new RegExp(`\\$\\{${secret}:\\?`), `${secret} is required, never defaulted`);
    }
    assert.match(compose, /DATABASE_URL: postgres:\/\/.*@db:5432\//);
    assert.doesNotMatch(compose, /\t/, 'YAML is indented with spaces');
    // Every variable the service is given is one its settings schema knows.
    const serviceBlock = compose.slice(compose.indexOf('  service:'));
    for (const [, name] of serviceBlock.matchAll(/^\s{6}([A-Z_]+):/gm)) assert.ok(name! in settingsSchema.shape, `${name} is read by the service`);
    // Production by the image's NODE_ENV: the sandbox stays off unless the operator names it.
    assert.match(compose, /SANDBOX_NETWORKS: \$\{SANDBOX_NETWORKS:-off\}/);
  });

  it('.dockerignore keeps local state and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'data', '.env', '.git']) assert.ok(ignored.includes(entry), entry);
  });
});
