// Link-session throughput and latency on loopback, each beside its baselines in the same run (bare node:http and
// a bare one-route Hono app answering the same JSON): create and read. The method is throughput-rounds.mjs.
// Publishing's routes are measured by publish-throughput.mjs the same way.
import { measureBesideBaselines, printThroughput } from './throughput-rounds.mjs';

export { THROUGHPUT_SETUP } from './throughput-rounds.mjs';

/** Measures every target beside the bare baselines; returns one summary row per target. */
export function measureThroughput() {
  return measureBesideBaselines({
    ports: [18787, 18790, 18791],
    prepare: async ({ api, headers }) => {
      const created = await (await fetch(`${api}/profiles/link-sessions`, { method: 'POST', headers, body: '{}' })).json();
      if (!created.sessionId) throw new Error(`could not create a session: ${JSON.stringify(created)}`);
      return [
        { name: 'POST /api/profiles/link-sessions', url: `${api}/profiles/link-sessions`, method: 'POST', headers, body: '{}' },
        { name: 'GET /api/profiles/link-sessions/{id}', url: `${api}/profiles/link-sessions/${created.sessionId}`, method: 'GET', headers },
      ];
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) printThroughput('Link-session throughput on loopback', await measureThroughput());
