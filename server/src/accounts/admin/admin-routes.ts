/**
 * @module
 * The admin HTTP API, mounted at `/admin/api` only when `ADMIN_TOKEN` is set (ours, not the spec's):
 * - `POST  /accounts` `{name, plan?, addOns?, domains?, allowedOrigins?}` → the account and its first API key (once)
 * - `GET   /accounts` · `GET /accounts/{id}`
 * - `PATCH /accounts/{id}` `{name?, plan?, addOns?, domains?, allowedOrigins?, instagramLinkMethod?, twitterCredentialsPolicy?, branding?}`
 * - `POST  /accounts/{id}/api-key` → a new API key replacing the old ones (shown once)
 * - `GET   /accounts/{id}/linked-accounts` → every profile with its linked accounts and their state
 * - `PUT   /profiles/{id or refId}/quota` `{monthlyPostQuota: n | null}`
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { adminAuth } from './admin-auth.js';
import { AdminOperations } from './operations.js';

export function adminRoutes(deps: AppDeps, adminToken: string): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const admin = new AdminOperations(deps);
  const body = (c: Context) => readJsonObject(c, deps.config.maxBodyBytes, 'admin');

  routes.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  routes.use('*', adminAuth(adminToken));
  routes.post('/accounts', async (c) => c.json({ status: 'success' as const, ...(await admin.createAccount(await body(c))) }));
  routes.get('/accounts', async (c) => c.json({ status: 'success' as const, accounts: await admin.listAccounts() }));
  routes.get('/accounts/:id', async (c) => c.json({ status: 'success' as const, account: await admin.showAccount(c.req.param('id')) }));
  routes.patch('/accounts/:id', async (c) =>
    c.json({ status: 'success' as const, account: await admin.changeAccount(c.req.param('id'), await body(c)) }),
  );
  routes.post('/accounts/:id/api-key', async (c) => c.json({ status: 'success' as const, ...(await admin.rotateApiKey(c.req.param('id'))) }));
  routes.get('/accounts/:id/linked-accounts', async (c) =>
    c.json({ status: 'success' as const, ...(await admin.listLinkedAccounts(c.req.param('id'))) }),
  );
  routes.put('/profiles/:id/quota', async (c) =>
    c.json({ status: 'success' as const, ...(await admin.setMonthlyPostQuota(c.req.param('id'), await body(c))) }),
  );
  return routes;
}
