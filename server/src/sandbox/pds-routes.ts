/**
 * @module
 * The sandbox's stand-in Bluesky PDS: `POST /sandbox/xrpc/com.atproto.server.createSession` accepts any handle
 * with the app password `sandbox-app-password` and refuses every other password with 401, as a PDS does.
 */
import { Hono } from 'hono';
import { randomBytes } from 'node:crypto';
import type { AppEnv } from '../context.js';

export const SANDBOX_BLUESKY_PASSWORD = 'sandbox-app-password';

export function sandboxPdsRoutes(): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.post('/xrpc/com.atproto.server.createSession', async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as { identifier?: unknown; password?: unknown } | null | undefined;
    // As a PDS answers a body that is not a JSON object: 400 InvalidRequest (XRPC error shape).
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return c.json({ error: 'InvalidRequest', message: 'Input must be a JSON object' }, 400);
    }
    if (typeof body.identifier !== 'string' || body.password !== SANDBOX_BLUESKY_PASSWORD) {
      return c.json({ error: 'AuthenticationRequired', message: 'Invalid identifier or password' }, 401);
    }
    const handle = body.identifier.replace(/^@/, '');
    return c.json({
      did: `did:plc:sandbox${Buffer.from(handle).toString('hex').slice(0, 16)}`,
      handle,
      accessJwt: randomBytes(24).toString('base64url'),
      refreshJwt: randomBytes(24).toString('base64url'),
    });
  });
  return routes;
}
