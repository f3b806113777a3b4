/**
 * @module
 * Test switches of the sandbox OAuth server's refresh grant, per sandbox account, to exercise account health:
 * `PUT /sandbox/net/{platform}/accounts/{accountId}/refresh-switch` (the API key of the integrator whose profile
 * linked the account, as switch-auth.ts requires) with any of:
 * - `transientMinutes` n (+ `transientStatus` 500 | 502 | 503 | 429, default 503): every refresh fails as a network
 *   outage would for the next n minutes of the service clock;
 * - `invalidGrant` true: every refresh answers `invalid_grant` (the user revoked the app) until switched off;
 * - `expiresInMinutes` n: renewed access tokens live n minutes (a long-lived token when n is days long);
 * - `grantScopes` [..]: renewals grant only these scopes (the user narrowed the consent).
 * The body replaces the account's switch; `{}` clears it. The answer also counts the refresh grants served for the
 * account (`refreshCalls`). Sandbox state of this process only, like the analytics faults.
 */
import { Hono, type Context } from 'hono';
import { isNetwork } from '@social-link-kit/protocol';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { badRequest } from '../../core/errors.js';
import type { Storage } from '../../storage/storage.js';
import { requireLinkingIntegrator } from './switch-auth.js';

const TRANSIENT_STATUSES = [500, 502, 503, 429] as const;
const ACTION = 'sandbox switch';

export interface RefreshSwitch {
  transientUntil: number | null;
  transientStatus: (typeof TRANSIENT_STATUSES)[number];
  invalidGrant: boolean;
  expiresInMinutes: number | null;
  grantScopes: string[] | null;
}

interface SwitchState {
  switches: Map<string, RefreshSwitch>;
  calls: Map<string, number>;
}

const stateByStorage = new WeakMap<Storage, SwitchState>();

function stateOf(storage: Storage): SwitchState {
  let state = stateByStorage.get(storage);
  if (!state) stateByStorage.set(storage, (state = { switches: new Map(), calls: new Map() }));
  return state;
}

/** What the refresh grant must do for this account now: an error to answer, or how to shape the new tokens. */
export type RefreshSwitchEffect =
  | { kind: 'fail'; status: 400 | 429 | 500 | 502 | 503; error: string; description: string }
  | { kind: 'issue'; ttlS: number | null; scope: string | null };

/** Called by the refresh grant (oauth-server.ts) for each refresh of a known account; counts it. */
export function refreshSwitchEffect(storage: Storage, platform: string, accountId: string, now: number): RefreshSwitchEffect {
  const state = stateOf(storage);
  const key = `${platform}:${accountId}`;
  state.calls.set(key, (state.calls.get(key) ?? 0) + 1);
  const found = state.switches.get(key);
  if (found?.invalidGrant) return { kind: 'fail', status: 400, error: 'invalid_grant', description: 'Sandbox: the user revoked this app.' };
  if (found?.transientUntil != null && now < found.transientUntil) {
    const status = found.transientStatus;
    return status === 429
      ? { kind: 'fail', status, error: 'rate_limit_exceeded', description: 'Sandbox: too many requests (429); try again later.' }
      : { kind: 'fail', status, error: 'temporarily_unavailable', description: `Sandbox: the token endpoint is down (${status}).` };
  }
  return { kind: 'issue', ttlS: found?.expiresInMinutes != null ? found.expiresInMinutes * 60 : null, scope: found?.grantScopes ? found.grantScopes.join(' ') : null };
}

function parseSwitch(body: Record<string, unknown>, now: number): RefreshSwitch {
  const known = ['transientMinutes', 'transientStatus', 'invalidGrant', 'expiresInMinutes', 'grantScopes'];
  const unknown = Object.keys(body).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw badRequest(`Unknown field(s): ${unknown.join(', ')}.`, { fields: unknown }, ACTION);
  const minutes = (name: string) => {
    const value = body[name];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 525_600) throw badRequest(`"${name}" must be a whole number of minutes from 1 to 525600.`, undefined, ACTION);
    return value;
  };
  const transientMinutes = minutes('transientMinutes');
  const status = body.transientStatus ?? 503;
  if (!(TRANSIENT_STATUSES as readonly unknown[]).includes(status)) throw badRequest(`"transientStatus" must be one of ${TRANSIENT_STATUSES.join(', ')}.`, undefined, ACTION);
  if (body.invalidGrant !== undefined && typeof body.invalidGrant !== 'boolean') throw badRequest('"invalidGrant" must be true or false.', undefined, ACTION);
  const scopes = body.grantScopes;
  if (scopes !== undefined && scopes !== null && (!Array.isArray(scopes) || scopes.length > 50 || scopes.some((scope) => typeof scope !== 'string' || scope.length > 200 || /\s/.test(scope)))) {
    throw badRequest('"grantScopes" must be a list of at most 50 scope names.', undefined, ACTION);
  }
  return {
    transientUntil: transientMinutes === null ? null : now + transientMinutes * 60_000,
    transientStatus: status as RefreshSwitch['transientStatus'],
    invalidGrant: body.invalidGrant === true,
    expiresInMinutes: minutes('expiresInMinutes'),
    grantScopes: (scopes as string[] | null | undefined) ?? null,
  };
}

export function sandboxRefreshSwitchRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const answer = (c: Context<AppEnv>, key: string) => {
    const state = stateOf(deps.storage);
    const found = state.switches.get(key) ?? null;
    return c.json({
      status: 'success',
      switch: found && { ...found, transientUntil: found.transientUntil === null ? null : new Date(found.transientUntil).toISOString() },
      refreshCalls: state.calls.get(key) ?? 0,
    });
  };
  routes.put('/:platform/accounts/:accountId/refresh-switch', async (c) => {
    const platform = c.req.param('platform');
    if (!isNetwork(platform)) throw badRequest('Unknown network.', { platform }, ACTION);
    await requireLinkingIntegrator(deps, c, platform, c.req.param('accountId'));
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    const key = `${platform}:${c.req.param('accountId')}`;
    if (Object.keys(body).length === 0) stateOf(deps.storage).switches.delete(key);
    else stateOf(deps.storage).switches.set(key, parseSwitch(body, deps.clock()));
    return answer(c, key);
  });
  routes.get('/:platform/accounts/:accountId/refresh-switch', async (c) => {
    const platform = c.req.param('platform');
    if (!isNetwork(platform)) throw badRequest('Unknown network.', { platform }, ACTION);
    await requireLinkingIntegrator(deps, c, platform, c.req.param('accountId'));
    return answer(c, `${platform}:${c.req.param('accountId')}`);
  });
  return routes;
}
