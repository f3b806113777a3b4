// Publishing's request path on loopback, beside the same baselines as the link-session bench and measured the same
// way (throughput-rounds.mjs): `POST /api/post`, immediate, to one sandbox linkedin account (its adapter is one
// loopback call to the service's own sandbox API), each request with its own text (the duplicate rule refuses
// repeats); the same POST scheduled a week ahead (accepted and stored, published later); `GET /api/post/:id`;
// and `GET /api/history?limit=10` over those posts. An immediate POST is far slower than a bare answer, so its
// open-loop rate is BENCH_POST_RATE (default 50/s) instead of 1,000/s; the scheduled one's BENCH_SCHEDULED_RATE (200/s).
import { randomBytes } from 'node:crypto';
import { measureBesideBaselines, printThroughput } from './throughput-rounds.mjs';

const ADMIN_TOKEN = 'bench-admin-token-' + 'a'.repeat(32);
const POST_RATE = Number(process.env.BENCH_POST_RATE ?? 50);
const SCHEDULED_RATE = Number(process.env.BENCH_SCHEDULED_RATE ?? 200);
/** BENCH_TARGETS=read,history measures only those (of immediate, scheduled, read, history); the default is all. */
const ONLY = process.env.BENCH_TARGETS?.split(',');
/** A week ahead, in the form the API takes (no milliseconds). */
const nextWeek = () => new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

async function expectOk(response, what) {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.json();
}

export function measurePublishThroughput() {
  return measureBesideBaselines({
    ports: [18792, 18793, 18794],
    serviceEnv: { SANDBOX_NETWORKS: 'all', ADMIN_TOKEN },
    prepare: async ({ api, headers, origin }) => {
      // The enterprise plan's 100,000 posts a month: the default plan's quota would end the run early with 429s.
      const admin = { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' };
      const { accounts } = await expectOk(await fetch(`${origin}/admin/api/accounts`, { headers: admin }), 'list accounts');
      await expectOk(
        await fetch(`${origin}/admin/api/accounts/${accounts[0].id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ plan: 'enterprise' }) }),
        'set the plan',
      );
      await expectOk(await fetch(`${api}/sandbox/accounts`, { method: 'POST', headers, body: JSON.stringify({ platform: 'linkedin' }) }), 'link linkedin');
      const makeBody = () => JSON.stringify({ post: `Bench ${randomBytes(12).toString('hex')} ${randomBytes(12).toString('base64url')}`, platforms: ['linkedin'] });
      const makeScheduledBody = () => JSON.stringify({ ...JSON.parse(makeBody()), scheduleDate: nextWeek() });
      // Ten posts first, so the history read answers a full page from the first request on.
      let seeded;
      for (let i = 0; i < 10; i++) seeded = await expectOk(await fetch(`${api}/post`, { method: 'POST', headers, body: makeBody() }), 'seed a post');
      const targets = [
        { name: 'POST /api/post (sandbox linkedin, immediate)', key: 'immediate', url: `${api}/post`, method: 'POST', headers, makeBody, openLoopRate: POST_RATE },
        // The goals of issue 31, as % of bare node:http in the same run.
        { name: 'POST /api/post (linkedin, scheduled)', key: 'scheduled', url: `${api}/post`, method: 'POST', headers, makeBody: makeScheduledBody, openLoopRate: SCHEDULED_RATE, target: '≥ 25 % of bare' },
        { name: 'GET /api/post/:id', key: 'read', url: `${api}/post/${seeded.id}`, method: 'GET', headers, target: '≥ 50 % of bare' },
        { name: 'GET /api/history?limit=10', key: 'history', url: `${api}/history?limit=10`, method: 'GET', headers, target: '≥ 40 % of bare' },
      ];
      return ONLY ? targets.filter((target) => ONLY.includes(target.key)) : targets;
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) printThroughput('Publishing throughput on loopback', await measurePublishThroughput());
