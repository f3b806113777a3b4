// Second baseline for the throughput benchmark: the bare server's exact work as one Hono route on
// @hono/node-server, with no middleware. The gap between it and bare node:http is the framework's floor; the gap
// between it and the service is what our own code costs.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';

const port = Number(process.env.PORT ?? 0);
const app = new Hono();
const answer = (c) =>
  c.json(
    {
      status: 'success',
      sessionId: `ls_${randomBytes(12).toString('hex')}`,
      url: `http://127.0.0.1:${port}/link?session=${randomBytes(32).toString('base64url')}&domain=dev`,
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
      title: 'Development',
    },
    200,
    { 'Cache-Control': 'no-store' },
  );
app.post('/', async (c) => {
  await c.req.text();
  return answer(c);
});
app.get('/', answer);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => console.log(`listening on http://127.0.0.1:${info.port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
