// Baseline for the throughput benchmark: a bare node:http server answering JSON of the same shape and size
// as the service, with no routing, auth, validation or database. The gap to it is what our stack costs.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

const port = Number(process.env.PORT ?? 0);
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.stringify({
      status: 'success',
      sessionId: `ls_${randomBytes(12).toString('hex')}`,
      url: `http://127.0.0.1:${port}/link?session=${randomBytes(32).toString('base64url')}&domain=dev`,
      expiresAt: new Date(Date.now() + 300_000).toISOString(),
      title: 'Development',
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(body);
  });
});
server.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
