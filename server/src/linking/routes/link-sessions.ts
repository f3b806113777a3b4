/**
 * @module
 * Link sessions for integrators (spec 4.6, 4.7), authenticated by API key:
 * - `POST   /api/profiles/link-sessions`             create (Profile-Key picks the profile to link)
 * - `GET    /api/profiles/link-sessions/:sessionId`  read state and completions
 * - `DELETE /api/profiles/link-sessions/:sessionId`  revoke
 * The create and the read are also served below Hono (`linkSessionRawRoutes`), by the same functions.
 */
import { Hono, type Context } from 'hono';
import { ErrorCode, type CreateLinkSessionResponse, type LinkSession } from '@social-link-kit/protocol';
import { iso } from '../../core/clock.js';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { checkEmailFields, describeSendFailure, sendFailedError } from '../email/email-request.js';
import { composeLinkEmail } from '../email/link-email.js';
import { ApiError } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import type { LinkSessionRecord, Profile } from '../../core/db/storage-types.js';
import { hashSecret, newSecret, newTimeOrderedId } from '../../core/tokens.js';
import { enforceLimit } from '../../core/limits/enforce-limit.js';
import { parseLinkSessionRequest } from '../session-request.js';
import { authenticateIncoming, type ApiCaller } from '../../accounts/api-key-auth.js';
import type { RawRoute } from '../../core/http/raw-listener.js';
import { readJsonBody } from '../../core/http/raw-request.js';
import type { IncomingMessage } from 'node:http';
import { describe } from '../../core/openapi/describe.js';
import { CreateLinkSessionRequestBody } from '@social-link-kit/protocol/api-requests.js';
import { CreateLinkSessionResponse as CreateLinkSessionAnswer, LinkSession as LinkSessionSchema, RevokeLinkSessionResponse } from '@social-link-kit/protocol';
import { assertNotSuspended } from '../../accounts/suspension.js';

const ACTION = 'link session';

/** What the link-session routes use of the app (the email link needs the mailer; creation is rate-limited). */
type LinkSessionDeps = Pick<AppDeps, 'config' | 'storage' | 'clock' | 'mailer' | 'limiter' | 'log'>;

export function linkSessionRoutes(deps: LinkSessionDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/', describe({ summary: 'Create a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/profiles/link-sessions; error codes 501-513 (README "Errors")', request: CreateLinkSessionRequestBody, response: CreateLinkSessionAnswer, name: 'CreateLinkSessionResponse', errors: [105, 163, 188, 504, 505, 506, 507, 508, 509, 510] }), async (c) => {
    const readBody = () => readJsonObject(c, deps.config.maxBodyBytes, ACTION);
    return c.json(await createLinkSession(deps, callerOf(c), readBody));
  });

  routes.get('/:sessionId', describe({ summary: 'Read a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; fields completedAt, lastCompletedAt, completedNetworks, state', response: LinkSessionSchema, name: 'LinkSession', errors: [[101, 404], 510] }), async (c) => c.json(await readLinkSession(deps, callerOf(c), c.req.param('sessionId'))));

  routes.delete('/:sessionId', describe({ summary: 'Revoke a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer fields', response: RevokeLinkSessionResponse, name: 'RevokeLinkSessionResponse', errors: [[101, 404]] }), async (c) => {
    // Only with the key of the profile the session links (spec 4.6); another profile's key finds nothing.
    const found = await deps.storage.linking.findLinkSession(c.get('account').id, c.req.param('sessionId'));
    if (!found || !(await mayAccess(deps, found, callerOf(c)))) throw sessionNotFound();
    const session = await deps.storage.linking.revokeLinkSession(c.get('account').id, c.req.param('sessionId'), deps.clock());
    if (!session) throw sessionNotFound();
    return c.json({ status: 'success', sessionId: session.id, revokedAt: iso(session.revokedAt!) });
  });

  return routes;
}

/**
 * The create and the read served below Hono (core/http/raw-listener.ts), by the same functions as the Hono routes
 * above and the same API-key check as the `/api/profiles/*` middleware (logged under its pattern when it refuses).
 */
export function linkSessionRawRoutes(deps: LinkSessionDeps): RawRoute<ApiCaller>[] {
  const authenticate = (incoming: IncomingMessage) => authenticateIncoming(deps, incoming);
  return [
    {
      method: 'POST',
      path: '/api/profiles/link-sessions',
      hasParam: false,
      pattern: '/api/profiles/link-sessions',
      authPattern: '/api/profiles/*',
      authenticate,
      answer: (caller, _param, incoming) => createLinkSession(deps, caller, () => readJsonBody(incoming, deps.config.maxBodyBytes, ACTION)),
    },
    {
      method: 'GET',
      path: '/api/profiles/link-sessions/',
      hasParam: true,
      pattern: '/api/profiles/link-sessions/:sessionId',
      authPattern: '/api/profiles/*',
      authenticate,
      answer: (caller, sessionId) => readLinkSession(deps, caller, sessionId),
    },
  ];
}

/**
 * `POST /api/profiles/link-sessions`. `readBody` is called after the rate limit, so a caller over it gets the
 * 429 whatever its body holds.
 */
export async function createLinkSession(deps: LinkSessionDeps, caller: ApiCaller, readBody: () => Promise<Record<string, unknown>>): Promise<CreateLinkSessionResponse> {
  const { account, profile } = caller;
  await enforceLimit(deps, 'sessionCreate', account.id, ACTION);
  const request = parseLinkSessionRequest(await readBody(), account);
  // A suspended profile links nothing (accounts/suspension.ts).
  await assertNotSuspended(deps.storage.driver, profile.id, ACTION);

  const now = deps.clock();
  const token = newSecret();
  // Time-ordered: consecutive sessions share the id index's last page (the id is not a secret; the token is).
  const sessionId = newTimeOrderedId('ls_', now);
  const expiresAt = now + request.expiresInMinutes * 60_000;
  await deps.storage.linking.createLinkSession({
    id: sessionId,
    tokenHash: hashSecret(token),
    accountId: account.id,
    profileId: profile.id,
    origin: request.origin,
    redirect: request.redirect,
    domain: request.domain,
    allowedSocial: request.allowedSocial,
    instagramLinkMethod: request.instagramLinkMethod,
    locale: request.locale,
    createdAt: now,
    expiresAt,
  });

  const url = `${deps.config.linkingUrl}?${new URLSearchParams({ session: token, domain: request.domain })}`;
  const response: CreateLinkSessionResponse = {
    status: 'success',
    sessionId,
    url,
    expiresAt: iso(expiresAt),
    title: profile.title,
  };
  if (request.email) Object.assign(response, await sendLinkEmail(deps, request.email, url, profile, expiresAt));
  return response;
}

/**
 * `GET /api/profiles/link-sessions/:sessionId`: only a session of the caller's profile is found (spec 4.6: it was
 * created with that profile's key); another profile's, even of the same account, answers as an unknown one.
 */
export async function readLinkSession(deps: Pick<AppDeps, 'storage' | 'clock'>, caller: ApiCaller, sessionId: string): Promise<LinkSession> {
  const session = await deps.storage.linking.findLinkSession(caller.account.id, sessionId);
  if (!session || !(await mayAccess(deps, session, caller))) throw sessionNotFound();
  return describeSession(deps, session, caller.profile);
}

/** The session's own profile; and the Primary Profile once that profile is deleted (its key no longer works). */
async function mayAccess(deps: Pick<AppDeps, 'storage'>, session: { profileId: string }, caller: ApiCaller): Promise<boolean> {
  if (session.profileId === caller.profile.id) return true;
  return caller.profile.isPrimary && (await deps.storage.accounts.findProfileById(session.profileId)) === null;
}

function callerOf(c: Context<AppEnv>): ApiCaller {
  return { account: c.get('account'), profile: c.get('profile') };
}

async function sendLinkEmail(
  deps: Pick<AppDeps, 'mailer' | 'log'>,
  email: Record<string, unknown>,
  url: string,
  profile: Profile,
  expiresAt: number,
): Promise<Pick<CreateLinkSessionResponse, 'emailSent' | 'emailError'>> {
  const check = checkEmailFields(email);
  if (!check.ok) return { emailSent: false, emailError: check.error };
  if (!deps.mailer) return { emailSent: false, emailError: sendFailedError('Email delivery is not configured on this service.') };
  try {
    await deps.mailer.send(composeLinkEmail(check.fields, url, profile.title, new Date(expiresAt)));
    return { emailSent: true };
  } catch (error) {
    // The operator's log gets the SMTP error; the integrator only its kind (never the mail server's host or port).
    deps.log(`link email failed: ${error instanceof Error ? error.message : String(error)}`);
    return { emailSent: false, emailError: sendFailedError(describeSendFailure(error)) };
  }
}

type SessionTimes = Pick<LinkSession, 'createdAt' | 'expiresAt' | 'revokedAt' | 'completedAt' | 'lastCompletedAt'>;

/** A record's times as ISO text, made once per record: a kept record (session-read-cache.ts) is answered again and again. */
const timesOfRecord = new WeakMap<LinkSessionRecord, SessionTimes>();

function timesOf(session: LinkSessionRecord): SessionTimes {
  let times = timesOfRecord.get(session);
  if (!times) {
    times = {
      createdAt: iso(session.createdAt),
      expiresAt: iso(session.expiresAt),
      revokedAt: session.revokedAt === null ? null : iso(session.revokedAt),
      completedAt: session.completedAt === null ? null : iso(session.completedAt),
      lastCompletedAt: session.lastCompletedAt === null ? null : iso(session.lastCompletedAt),
    };
    timesOfRecord.set(session, times);
  }
  return times;
}

/** `caller` is the request's own profile: most sessions belong to it, which saves looking it up again. */
export async function describeSession(deps: Pick<AppDeps, 'storage' | 'clock'>, session: LinkSessionRecord, caller: Profile): Promise<LinkSession> {
  const profile = session.profileId === caller.id ? caller : await deps.storage.accounts.findProfileById(session.profileId);
  const state = session.revokedAt !== null ? 'revoked' : session.expiresAt <= deps.clock() ? 'expired' : 'active';
  return {
    status: 'success',
    sessionId: session.id,
    state,
    refId: profile?.refId ?? '',
    title: profile?.title ?? '',
    // createdAt, expiresAt, revokedAt, completedAt, lastCompletedAt, in this order.
    ...timesOf(session),
    completedNetworks: session.completedNetworks,
    origin: session.origin,
    allowedSocial: session.allowedSocial,
    locale: session.locale,
  };
}

function sessionNotFound(): ApiError {
  return new ApiError(404, ErrorCode.badRequest, 'No link session with this id for this API key.', { action: ACTION });
}
