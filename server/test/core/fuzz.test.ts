/**
 * Fuzzes every route of the route table on the real service: random path parameters, query strings, headers
 * (none, wrong, and the real API key, link token, admin token and telegram secret) and bodies (malformed JSON,
 * JSON of every type, form and multipart bodies with broken boundaries, binary). No answer may be a 5xx, except
 * the spec's own 503 (code 503: network not available), a page whose build is absent and the sandbox media host's
 * fault modes (they answer the status asked for); JSON errors under /api
 * and /admin are the spec's envelope. `FUZZ_REQUESTS` sets the count (10,000 for the full run); `FUZZ_SEED`
 * replays a run.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { operationsOf, type Operation } from '../../src/core/openapi/describe.js';
import { startTestService, tokenOf, type TestService } from '../support/test-service.js';
import { mulberry32 } from '../support/seeded-random.js';

const COUNT = Number(process.env.FUZZ_REQUESTS ?? 600);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const ADMIN_TOKEN = 'admin-token-for-the-fuzz-test-0123456789';
const TELEGRAM_SECRET = 'fuzz-telegram-secret';
const repoRoot = join(import.meta.dirname, '..', '..', '..');
const BUILT = {
  hosted: existsSync(join(repoRoot, 'hosted', 'dist', 'index.html')),
  widget: existsSync(join(repoRoot, 'dist', 'cdn', 'social-link.js')),
};

/** Every mounted operation but the sandbox media host's fault modes, which misbehave on purpose (slow answers,
 * redirect loops, any status). */
function fuzzedRoutes(svc: TestService): Operation[] {
  return operationsOf(svc.routes).filter((operation) => !operation.path.startsWith('/sandbox/media/mode/'));
}

/** mulberry32: small, seedable, good enough to pick inputs. */
function random(seed: number) {
  const next = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

const STRINGS = ['', 'x', 'twitter', 'bluesky', 'telegram', '%00', '%0A%0D', '..%2F..%2Fetc%2Fpasswd', '%E2%80%AE', 'a'.repeat(3000), '😀', '%FF%FE', '*', 'null', '-1', '1e309', '__proto__', 'constructor'];
const JSON_VALUES: unknown[] = [null, true, 0, -1, 1e308, 'text', [], [1, 'a', null], {}, { __proto__: { admin: true } }, { a: { b: { c: [{}] } } }, '\u0000\u001b[2J', 'x'.repeat(20_000)];

function fuzzBody(r: ReturnType<typeof random>, fieldNames: string[]): { body?: string | Uint8Array; contentType?: string } {
  switch (r.pick(['none', 'json', 'object', 'malformed', 'form', 'multipart', 'binary', 'deep'] as const)) {
    case 'none':
      return {};
    case 'json':
      return { body: JSON.stringify(r.pick(JSON_VALUES)), contentType: r.pick(['application/json', 'text/plain', 'application/json; charset=latin1']) };
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const name of fieldNames) if (r.next() < 0.6) object[name] = r.pick([...JSON_VALUES, ...STRINGS]);
      if (r.next() < 0.2) object[r.pick(STRINGS)] = r.pick(JSON_VALUES);
      return { body: JSON.stringify(object), contentType: 'application/json' };
    }
    case 'malformed':
      return { body: r.pick(['{', '{"a":', '[1,,2]', '{"a":1}{', '\u0000', '{"a":"\ud800"}', 'NaN']), contentType: 'application/json' };
    case 'form':
      return { body: r.pick(['a=1&b', '%%%=&&', 'choice=allow&redirect_uri=x', '=']), contentType: 'application/x-www-form-urlencoded' };
    case 'multipart':
      return { body: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1', contentType: r.pick(['multipart/form-data', 'multipart/form-data; boundary=y', 'multipart/form-data; boundary=x']) };
    case 'binary':
      return { body: new Uint8Array(Array.from({ length: 64 }, () => Math.floor(r.next() * 256))), contentType: r.pick(['application/octet-stream', 'application/json']) };
    case 'deep':
      return { body: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: 'application/json' };
  }
}

describe('fuzzing every route', () => {
  let svc: TestService;
  const credentials: Record<string, string> = {};
  before(async () => {
    svc = await startTestService({ env: { ADMIN_TOKEN, TELEGRAM_WEBHOOK_SECRET: TELEGRAM_SECRET } });
    const session = await svc.client.createLinkSession({ origin: 'https://app.example.test' });
    credentials.linkToken = tokenOf(session.url);
    credentials.sessionId = session.sessionId;
  });
  after(() => svc.close());

  it(`answers ${COUNT} random requests without a 5xx (seed ${SEED})`, async () => {
    const r = random(SEED);
    const failures: string[] = [];
    const routes = fuzzedRoutes(svc);
    for (let i = 0; i < COUNT; i++) {
      const route = r.pick(routes);
      const path = route.path.replace(/:([A-Za-z]+)/g, (_m, name: string) =>
        name === 'sessionId' && r.next() < 0.3 ? credentials.sessionId! : name === 'secret' && r.next() < 0.5 ? TELEGRAM_SECRET : r.pick(STRINGS),
      );
      const query = r.next() < 0.3 ? `?${r.pick(['session', 'jwt', 'domain', 'state', 'code', 'ticket', 'error'])}=${r.pick(STRINGS)}` : '';
      const headers: Record<string, string> = {};
      const auth = r.pick(['none', 'junk', 'apiKey', 'linkToken', 'admin', 'basic'] as const);
      if (auth !== 'none') {
        headers.Authorization = {
          junk: `Bearer ${r.pick(STRINGS).replace(/[^\x21-\x7e]/g, '') || 'x'}`,
          apiKey: `Bearer ${svc.apiKey}`,
          linkToken: `Bearer ${credentials.linkToken}`,
          admin: `Bearer ${ADMIN_TOKEN}`,
          basic: 'Basic dXNlcjpwdw==',
        }[auth];
      }
      if (r.next() < 0.3) headers['Profile-Key'] = r.pick(['pk_nope', 'x', '']);
      if (r.next() < 0.3) headers['X-Telegram-Bot-Api-Secret-Token'] = TELEGRAM_SECRET;
      const fieldNames = route.doc?.request ? Object.keys((route.doc.request as unknown as { _zod?: { def?: { shape?: object } } })._zod?.def?.shape ?? {}) : [];
      const { body, contentType } = route.method === 'GET' || route.method === 'HEAD' ? {} : fuzzBody(r, fieldNames);
      if (contentType) headers['Content-Type'] = contentType;
      const method = r.next() < 0.05 ? r.pick(['PUT', 'PATCH', 'OPTIONS', 'DELETE']) : route.method;
      let response: Response;
      try {
        response = await fetch(`${svc.url}${path}${query}`, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body, redirect: 'manual', signal: AbortSignal.timeout(15_000) });
      } catch (error) {
        failures.push(`#${i} ${method} ${path.slice(0, 120)}: request failed (${String(error)})`);
        continue;
      }
      const text = await response.text();
      const notBuilt = (path.startsWith('/link') && !BUILT.hosted) || (path.startsWith('/widget') && !BUILT.widget);
      let json: Record<string, unknown> | null = null;
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON
      }
      const allowed503 = response.status === 503 && (notBuilt || json?.code === 503);
      // The sandbox media host's fault modes answer the status they are asked for, 5xx included, by design.
      const faultHost = /^\/sandbox\/media\/mode\/(status|get-fails)\//.test(path);
      if (response.status >= 500 && !allowed503 && !faultHost) failures.push(`#${i} ${method} ${path.slice(0, 120)}${query.slice(0, 60)}: ${response.status} ${text.slice(0, 200)}`);
      if (response.status >= 400 && json && /^\/(api|admin)\//.test(path) && !['status', 'action', 'code', 'message'].every((key) => key in json!)) {
        failures.push(`#${i} ${method} ${path.slice(0, 120)}: ${response.status} not an envelope: ${text.slice(0, 200)}`);
      }
    }
    assert.deepEqual(failures, [], `seed ${SEED}`);
  });
});
