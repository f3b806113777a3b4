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
import { describe } from '../../core/openapi/describe.js';
import { SessionView as SessionViewSchema } from '@social-link-kit/protocol';

export function linkRoutes(deps: Pick<AppDeps, 'storage' | 'clock' | 'networks'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/session', describe({ summary: 'The session as the hosted page shows it', tag: 'Hosted page API', auth: 'linkToken', response: SessionViewSchema, name: 'SessionView', errors: [510] }), async (c) => {
    const view = await buildSessionView(deps, c.get('linkSession'));
    if (!view) throw linkInvalidError();
    return c.json(view);
  });

  return routes;
}
