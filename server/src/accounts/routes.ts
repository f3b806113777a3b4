/**
 * @module
 * User profiles of the account (spec 2.3), managed with the API key:
 * - `POST   /api/profiles`  `{title}` → the new profile with its Profile-Key (shown once)
 * - `GET    /api/profiles`  list
 * - `DELETE /api/profiles`  with the `Profile-Key` header of the profile to delete
 * - `PATCH  /api/profiles`  `{refId, suspended: false}` without `Profile-Key`: the Primary Profile lifts a
 *   profile's suspension (suspension.ts)
 *
 * Deleting a profile unlinks its accounts, and each one is reported exactly as `DELETE /api/profiles/social`
 * reports an unlink: a `social` webhook with `event: "unlink"`, queued in the transaction of the deletion. It
 * goes to the deleted profile's own `social` registration, like every event of a profile (the Primary
 * Profile's registrations never receive another profile's events). That registration outlives the profile until
 * these last events are done, then the delivery worker removes it; no event is queued when the profile had none.
 */
import { Hono } from 'hono';
import { ErrorCode, type CreateProfileResponse, type ProfileSuspension, type UserProfile } from '@social-link-kit/protocol';
import { iso } from '../core/clock.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { ApiError, badRequest } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import type { Profile } from '../core/db/storage-types.js';
import { hashSecret, newId, newSecret } from '../core/tokens.js';
import { deleteProfile } from './service.js';
import { describe } from '../core/openapi/describe.js';
import { CreateProfileRequest, LiftSuspensionRequest } from '@social-link-kit/protocol/api-requests.js';
import { CreateProfileResponse as CreateProfileAnswer, DeleteProfileResponse, LiftSuspensionResponse, ListProfilesResponse } from '@social-link-kit/protocol';
import { liftSuspension } from './suspension.js';
import { suspensionsOfAccount } from './suspension-store.js';

const MAX_TITLE = 200;

export function profileRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock'>): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.post('/', describe({ summary: 'Create a user profile (its Profile-Key is shown once)', tag: 'Profiles', auth: 'apiKey', origin: 'spec', request: CreateProfileRequest, response: CreateProfileAnswer, name: 'CreateProfileResponse' }), async (c) => {
    const body = await readJsonObject(c, deps.config.maxBodyBytes, 'profile');
    const title = typeof body.title === 'string' ? body.title.trim() : '';
    if (title === '' || title.length > MAX_TITLE) {
      throw badRequest(`"title" is required: a string of 1 to ${MAX_TITLE} characters.`, undefined, 'profile');
    }
    const profileKey = newSecret('pk_');
    const profile: Profile = {
      id: newId('pr_'),
      accountId: c.get('account').id,
      refId: newId(''),
      title,
      isPrimary: false,
      createdAt: deps.clock(),
    };
    await deps.storage.accounts.createProfile(profile, hashSecret(profileKey));
    const response: CreateProfileResponse = { status: 'success', ...toUserProfile(profile), profileKey };
    return c.json(response);
  });

  routes.get('/', describe({ summary: 'List user profiles', tag: 'Profiles', auth: 'apiKey', origin: 'spec', response: ListProfilesResponse, name: 'ListProfilesResponse' }), async (c) => {
    const profiles = await deps.storage.accounts.listProfiles(c.get('account').id);
    const suspensions = await suspensionsOfAccount(deps.storage.driver, c.get('account').id);
    return c.json({ status: 'success', profiles: profiles.map((profile) => toUserProfile(profile, suspensions.get(profile.id))) });
  });

  routes.patch('/', describe({ summary: "Lift a profile's suspension (the Primary Profile only)", tag: 'Profiles', auth: 'apiKey', ours: 'suspension after a repeat 249 (spec 7)', request: LiftSuspensionRequest, response: LiftSuspensionResponse, name: 'LiftSuspensionResponse', errors: [[101, 404]] }), async (c) => {
    if (!c.get('profile').isPrimary) {
      throw badRequest('Only the Primary Profile lifts a suspension: send this request without the "Profile-Key" header, naming the profile by "refId".', undefined, 'profile');
    }
    const body = LiftSuspensionRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, 'profile'));
    if (!body.success) throw badRequest('Send {"refId": "<the profile\'s refId>", "suspended": false}: lifting is the only change offered here.', undefined, 'profile');
    const profile = (await deps.storage.accounts.listProfiles(c.get('account').id)).find((candidate) => candidate.refId === body.data.refId);
    if (!profile) throw new ApiError(404, ErrorCode.badRequest, 'No profile of this account has that refId.', { action: 'profile' });
    const lifted = await liftSuspension(deps.storage, profile.id, deps.clock());
    return c.json({ status: 'success', refId: profile.refId, lifted });
  });

  routes.delete('/', describe({ summary: 'Delete the user profile named by Profile-Key', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', response: DeleteProfileResponse, name: 'DeleteProfileResponse' }), async (c) => {
    const profile = c.get('profile');
    if (profile.isPrimary) {
      throw badRequest('Send the "Profile-Key" header of the user profile to delete; the Primary Profile cannot be deleted.', undefined, 'profile');
    }
    // Also queues the `unlink` webhook events (see the module comment).
    await deleteProfile(deps.storage, profile.id, deps.clock());
    return c.json({ status: 'success', refId: profile.refId });
  });

  return routes;
}

function toUserProfile(profile: Profile, suspension?: ProfileSuspension): UserProfile {
  return { refId: profile.refId, title: profile.title, createdAt: iso(profile.createdAt), ...(suspension && { suspension }) };
}
