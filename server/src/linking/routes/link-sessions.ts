/**
 * @module
 * Link sessions for integrators (spec 4.6, 4.7), authenticated by API key:
 * - `POST   /api/profiles/link-sessions`             create (Profile-Key picks the profile to link)
 * - `GET    /api/profiles/link-sessions/:sessionId`  read state and completions
 * - `DELETE /api/profiles/link-sessions/:sessionId`  revoke
 */
import { Hono } from 'hono';
import { ErrorCode, type CreateLinkSessionResponse, type LinkSession } from '../../../../src/protocol/index.js';
import { iso } from '../../core/clock.js';
import type { AppDeps, AppEnv } from '../../context.js';
import { checkEmailFields, describeSendFailure, sendFailedError } from '../email/email-request.js';
import { composeLinkEmail } from '../email/link-email.js';
import { ApiError } from '../../core/errors.js';
import { readJsonObject } from '../../core/http/read-json.js';
import type { LinkSessionRecord, Profile } from '../../core/db/storage-types.js';
import { hashSecret, newId, newSecret } from '../../core/tokens.js';
import { enforceLimit } from '../../core/limits/enforce-limit.js';
import { parseLinkSessionRequest } from '../session-request.js';

export function linkSessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/', async (c) => {
    const account = c.get('account');
    const profile = c.get('profile');
    await enforceLimit(deps, 'sessionCreate', account.id, 'link session');
    const body = await readJsonObject(c, deps.config.maxBodyBytes, 'link session');
    const request = parseLinkSessionRequest(body, account);

    const now = deps.clock();
    const token = newSecret();
    const sessionId = newId('ls_');
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
    return c.json(response);
  });

  routes.get('/:sessionId', async (c) => {
    const session = await deps.storage.linking.findLinkSession(c.get('account').id, c.req.param('sessionId'));
    if (!session) throw sessionNotFound();
    return c.json(await describeSession(deps, session, c.get('profile')));
  });

  routes.delete('/:sessionId', async (c) => {
    const session = await deps.storage.linking.revokeLinkSession(c.get('account').id, c.req.param('sessionId'), deps.clock());
    if (!session) throw sessionNotFound();
    return c.json({ status: 'success', sessionId: session.id, revokedAt: iso(session.revokedAt!) });
  });

  return routes;
}

async function sendLinkEmail(
  deps: AppDeps,
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

/** `caller` is the request's own profile: most sessions belong to it, which saves looking it up again. */
export async function describeSession(deps: AppDeps, session: LinkSessionRecord, caller: Profile): Promise<LinkSession> {
  const profile = session.profileId === caller.id ? caller : await deps.storage.accounts.findProfileById(session.profileId);
  const state = session.revokedAt !== null ? 'revoked' : session.expiresAt <= deps.clock() ? 'expired' : 'active';
  return {
    status: 'success',
    sessionId: session.id,
    state,
    refId: profile?.refId ?? '',
    title: profile?.title ?? '',
    createdAt: iso(session.createdAt),
    expiresAt: iso(session.expiresAt),
    revokedAt: session.revokedAt === null ? null : iso(session.revokedAt),
    completedAt: session.completedAt === null ? null : iso(session.completedAt),
    lastCompletedAt: session.lastCompletedAt === null ? null : iso(session.lastCompletedAt),
    completedNetworks: session.completedNetworks,
    origin: session.origin,
    allowedSocial: session.allowedSocial,
    locale: session.locale,
  };
}

function sessionNotFound(): ApiError {
  return new ApiError(404, ErrorCode.badRequest, 'No link session with this id for this API key.', { action: 'link session' });
}
