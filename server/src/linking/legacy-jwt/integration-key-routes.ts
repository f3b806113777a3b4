/**
 * @module
 * The integration's key for legacy JWT links (spec 5.5), with the API key (account-wide; `Profile-Key` is not
 * needed):
 * - `PUT    /api/profiles/integration-key` `{publicKey}` (JWK or PEM SPKI; RS256, ES256 or EdDSA) registers or
 *   replaces the public key that verifies the integrator's own JWTs → `{status, algorithm, thumbprint}`
 * - `GET    /api/profiles/integration-key` → `{status, integrator, service}`, each `{algorithm, thumbprint, createdAt}` or null
 * - `DELETE /api/profiles/integration-key` the integration reset: removes the registered key and the service's
 *   generateJWT key, so every JWT link issued so far stops working → `{status, reset: true}`
 */
import { Hono } from 'hono';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { iso } from '../../core/clock.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { parsePublicKeyInput } from './public-key-input.js';
import type { IntegrationKey } from '../../core/db/storage-types.js';
import { rejectUnknownFields } from '../../core/http/reject-unknown-fields.js';
import { describe } from '../../core/openapi/describe.js';
import { IntegrationKeyRequest, IntegrationKeyResponse, IntegrationKeysResponse, IntegrationResetResponse } from '@social-link-kit/protocol/api-requests.js';

const ACTION = 'integration key';

export function integrationKeyRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.put('/', describe({ summary: "Register the integration's public key for legacy JWT links", tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation: the spec names the integration package, not how it is managed', request: IntegrationKeyRequest, response: IntegrationKeyResponse, name: 'IntegrationKeyResponse' }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    rejectUnknownFields(body, ['publicKey'], ACTION);
    const parsed = parsePublicKeyInput(body.publicKey);
    const key: IntegrationKey = {
      accountId: c.get('account').id,
      kind: 'integrator',
      algorithm: parsed.algorithm,
      publicJwk: parsed.publicJwk,
      sealedPrivateKey: null,
      createdAt: deps.clock(),
    };
    await deps.storage.integrationKeys.putIntegrationKey(key);
    return c.json({ status: 'success', algorithm: key.algorithm, thumbprint: await thumbprintOf(key) });
  });

  routes.get('/', describe({ summary: 'The keys that verify legacy JWT links', tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation', response: IntegrationKeysResponse, name: 'IntegrationKeysResponse' }), async (c) => {
    const accountId = c.get('account').id;
    const describe = async (key: IntegrationKey | null) =>
      key ? { algorithm: key.algorithm, thumbprint: await thumbprintOf(key), createdAt: iso(key.createdAt) } : null;
    return c.json({
      status: 'success',
      integrator: await describe(await deps.storage.integrationKeys.findIntegrationKey(accountId, 'integrator')),
      service: await describe(await deps.storage.integrationKeys.findIntegrationKey(accountId, 'service')),
    });
  });

  routes.delete('/', describe({ summary: 'Reset the integration: every JWT link issued so far stops working', tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation', response: IntegrationResetResponse, name: 'IntegrationResetResponse' }), async (c) => {
    await deps.storage.integrationKeys.resetIntegrationKeys(c.get('account').id, deps.clock());
    return c.json({ status: 'success', reset: true });
  });

  return routes;
}

function thumbprintOf(key: IntegrationKey): Promise<string> {
  return calculateJwkThumbprint(key.publicJwk as JWK);
}
