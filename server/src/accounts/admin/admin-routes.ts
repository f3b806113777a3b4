/**
 * @module
 * The admin HTTP API, mounted at `/admin/api` only when `ADMIN_TOKEN` is set (ours, not the spec's):
 * - `POST  /accounts` `{name, plan?, addOns?, domains?, allowedOrigins?}` → the account and its first API key (once)
 * - `GET   /accounts` · `GET /accounts/{id}`
 * - `PATCH /accounts/{id}` `{name?, plan?, addOns?, domains?, allowedOrigins?, instagramLinkMethod?, twitterCredentialsPolicy?, branding?}`
 * - `POST  /accounts/{id}/api-key` → a new API key replacing the old ones (shown once)
 * - `GET   /accounts/{id}/linked-accounts` → every profile with its linked accounts and their state
 * - `PUT   /profiles/{id or refId}/quota` `{monthlyPostQuota: n | null}`
 * - `GET   /network-status` → each network's status (observed, or the operator's) as integrators see it
 * - `PUT   /network-status/{platform}` `{status: operational|degraded|down, message?}` · `DELETE` clears it
 */
import { Hono, type Context } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { AdminNetworkStatusRequest, NetworkStatusResponse } from '@social-link-kit/protocol';
import { adminAuth } from './admin-auth.js';
import { AdminOperations, parseAdminInput } from './operations.js';
import { describe, NOT_FOUND } from '../../core/openapi/describe.js';
import * as schemas from '@social-link-kit/protocol/admin.js';

export function adminRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'tokenCipher'>, adminToken: string): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const admin = new AdminOperations(deps);
  const body = (c: Context) => readJsonObject(c, deps.config.maxBodyBytes, 'admin');

  routes.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  routes.use('*', adminAuth(adminToken));
  routes.post('/accounts', describe({ summary: 'Create an account (its API key is shown once)', tag: 'Admin', auth: 'adminToken', request: schemas.AdminCreateAccountRequest, response: schemas.AdminCreateAccountResponse, name: 'AdminCreateAccountResponse' }), async (c) => c.json({ status: 'success' as const, ...(await admin.createAccount(await body(c))) }));
  routes.get('/accounts', describe({ summary: 'List accounts', tag: 'Admin', auth: 'adminToken', response: schemas.AdminAccountListResponse, name: 'AdminAccountListResponse' }), async (c) => c.json({ status: 'success' as const, accounts: await admin.listAccounts() }));
  routes.get('/accounts/:id', describe({ summary: 'Show an account', tag: 'Admin', auth: 'adminToken', response: schemas.AdminAccountResponse, name: 'AdminAccountResponse', errors: [NOT_FOUND] }), async (c) => c.json({ status: 'success' as const, account: await admin.showAccount(c.req.param('id')) }));
  routes.patch('/accounts/:id', describe({ summary: 'Change plan, add-ons, domains, origins, instagram method, twitter policy, branding', tag: 'Admin', auth: 'adminToken', request: schemas.AdminAccountChanges, response: schemas.AdminAccountResponse, errors: [NOT_FOUND] }), async (c) =>
    c.json({ status: 'success' as const, account: await admin.changeAccount(c.req.param('id'), await body(c)) }),
  );
  routes.post('/accounts/:id/api-key', describe({ summary: "Rotate the account's API key (shown once)", tag: 'Admin', auth: 'adminToken', response: schemas.AdminApiKeyResponse, name: 'AdminApiKeyResponse', errors: [NOT_FOUND] }), async (c) => c.json({ status: 'success' as const, ...(await admin.rotateApiKey(c.req.param('id'))) }));
  routes.get('/accounts/:id/linked-accounts', describe({ summary: 'Profiles with their linked accounts and token state', tag: 'Admin', auth: 'adminToken', response: schemas.AdminLinkedAccountsResponse, name: 'AdminLinkedAccountsResponse', errors: [NOT_FOUND] }), async (c) =>
    c.json({ status: 'success' as const, ...(await admin.listLinkedAccounts(c.req.param('id'))) }),
  );
  routes.put('/profiles/:id/quota', describe({ summary: "Set a profile's monthly post quota", tag: 'Admin', auth: 'adminToken', request: schemas.AdminQuotaRequest, response: schemas.AdminQuotaResponse, name: 'AdminQuotaResponse', errors: [NOT_FOUND] }), async (c) =>
    c.json({ status: 'success' as const, ...(await admin.setMonthlyPostQuota(c.req.param('id'), await body(c))) }),
  );
  routes.get('/network-status', describe({ summary: "Each network's status, observed or set by the operator", tag: 'Admin', auth: 'adminToken', response: NetworkStatusResponse, name: 'NetworkStatusResponse' }), async (c) => c.json({ status: 'success' as const, networks: await admin.networkStatuses() }));
  routes.put('/network-status/:platform', describe({ summary: "Set the operator's status of a network (over the observed figures)", tag: 'Admin', auth: 'adminToken', request: AdminNetworkStatusRequest, response: NetworkStatusResponse, errors: [101, 163] }), async (c) => {
    const request = parseAdminInput(AdminNetworkStatusRequest, await body(c));
    const networks = await admin.setNetworkStatus(c.req.param('platform'), request.status, request.message ?? null);
    return c.json({ status: 'success' as const, networks });
  });
  routes.delete('/network-status/:platform', describe({ summary: "Clear the operator's status of a network", tag: 'Admin', auth: 'adminToken', response: NetworkStatusResponse, errors: [163] }), async (c) =>
    c.json({ status: 'success' as const, networks: await admin.setNetworkStatus(c.req.param('platform'), null, null) }),
  );
  return routes;
}
