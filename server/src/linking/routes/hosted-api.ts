/**
 * @module
 * The hosted page's API, authenticated by the link token (`Authorization: Bearer <token>`):
 * - `GET /api/link/session`  the session view: profile title, allowed networks (linked, sandbox or real), expiry, locale, branding
 */
import { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { linkInvalidError } from '../service.js';
import { buildSessionView } from '../session-view.js';

export function linkRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/session', async (c) => {
    const view = await buildSessionView(deps, c.get('linkSession'));
    if (!view) throw linkInvalidError();
    return c.json(view);
  });

  return routes;
}
