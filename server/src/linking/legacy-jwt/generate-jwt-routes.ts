/**
 * @module
 * The deprecated generate-JWT operation (spec 9), with the API key; `Profile-Key` picks the profile to link:
 * - `POST /api/profiles/generateJWT` `{domain, redirect?, allowedSocial?, expiresIn?, privateKey?, logout?, base64?}`
 *   → `{status, title, token, url, emailSent: false, expiresIn}`, url = `{linkingUrl}?jwt=<token>&domain=<domain>`
 *
 * `privateKey`, `logout` and `base64` are the three parameters the spec says are accepted and ignored: the
 * token is signed with the service's own Ed25519 key for the account (service-key.ts), never with
 * a key sent by the caller. `domain`, `redirect`, `allowedSocial` and `expiresIn` follow the link-session rules
 * (spec 4.6: default 5 minutes, at most 2880, setting it needs max-pack). The token follows
 * legacy-jwt-rules.ts, so the hosted page verifies it like any legacy link.
 */
import { Hono } from 'hono';
import { SignJWT } from 'jose';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { badRequest } from '../../core/errors.js';
import { rejectUnknownFields } from '../../core/http/reject-unknown-fields.js';
import { LEGACY_AUDIENCE, SERVICE_KEY_ID } from './legacy-jwt-rules.js';
import { serviceSigningKey } from './service-key.js';
import { readJsonObject } from '../../core/http/read-json.js';
import { newId } from '../../core/tokens.js';
import { parseLinkSessionRequest } from '../session-request.js';
import { describe } from '../../core/openapi/describe.js';
import { GenerateJwtRequest, GenerateJwtResponse } from '@social-link-kit/protocol/api-requests.js';

const ACTION = 'generate JWT';
const USED_FIELDS = ['domain', 'redirect', 'allowedSocial', 'expiresIn'];
const IGNORED_FIELDS = ['privateKey', 'logout', 'base64'];

export function generateJwtRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock' | 'tokenCipher'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/', describe({ summary: 'Generate a legacy JWT link (deprecated)', tag: 'Legacy JWT links', auth: 'apiKeyAndProfileKey', origin: 'spec', request: GenerateJwtRequest, response: GenerateJwtResponse, name: 'GenerateJwtResponse', errors: [163, 505, 506, 507, 508, 509] }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    rejectUnknownFields(body, [...USED_FIELDS, ...IGNORED_FIELDS], ACTION);
    if (typeof body.domain !== 'string') throw badRequest('"domain" is required: one of the linking domains of this account.', undefined, ACTION);
    const used = Object.fromEntries(USED_FIELDS.filter((key) => body[key] !== undefined).map((key) => [key, body[key]]));
    const account = c.get('account');
    const profile = c.get('profile');
    const request = parseLinkSessionRequest(used, account);

    const issuedAt = Math.floor(deps.clock() / 1000);
    const claims: Record<string, unknown> = {};
    if (request.allowedSocial) claims.allowedSocial = request.allowedSocial;
    if (request.redirect) claims.redirect = request.redirect;
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'JWT', kid: SERVICE_KEY_ID })
      .setIssuer(request.domain)
      .setAudience(LEGACY_AUDIENCE)
      .setSubject(profile.refId)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + request.expiresInMinutes * 60)
      .setJti(newId('jwt_'))
      .sign(await serviceSigningKey(deps.storage, deps.tokenCipher, account.id, deps.clock));

    const url = `${deps.config.linkingUrl}?${new URLSearchParams({ jwt: token, domain: request.domain })}`;
    return c.json({ status: 'success', title: profile.title, token, url, emailSent: false, expiresIn: request.expiresInMinutes });
  });

  return routes;
}
