/**
 * @module
 * Comment-triggered private replies (instagram, facebook), with the API key (and `Profile-Key`):
 * - `POST /api/automations` `{name?, triggerWords, replyText, platforms, postId?}` · `GET /api/automations`
 * - `PATCH /api/automations/:id` `{paused}` · `DELETE /api/automations/:id`
 * - `GET /api/automations/:id/activity`: newest first; `status` `sent`, `failed` (the network's reason in
 *   `actionResults[].errorDetails`, codes 490-495, never retried automatically) or `auth_error` (reconnect).
 * What runs them: network-events.ts.
 */
import { Hono } from 'hono';
import { CreateAutomationRequest, UpdateAutomationRequest } from '@social-link-kit/protocol/analytics/index.js';
import type { AppDeps } from '../app-deps.js';
import type { AppEnv } from '../context.js';
import { iso } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { readJsonObject } from '../core/http/read-json.js';
import { newId } from '../core/tokens.js';
import type { Publishing } from '../publishing/publishing.js';
import { notFound } from '../publishing/post-answer.js';
import { requestError } from '../publishing/request-errors.js';
import { AutomationStore, type Activity, type Automation } from './automation-store.js';
import { describe, NOT_FOUND, jsonAnswer } from '../core/openapi/describe.js';
import { AutomationActivityResponse, CreateAutomationResponse, ListAutomationsResponse } from '@social-link-kit/protocol/analytics/index.js';

const ACTION = 'automations';

function view(automation: Automation) {
  const { profileId: _profile, createdAt, updatedAt: _updated, ...rest } = automation;
  return { ...rest, created: iso(createdAt) };
}

function activityView(activity: Activity) {
  return {
    id: activity.id,
    status: activity.status,
    platform: activity.platform,
    commentId: activity.commentId,
    postId: activity.networkPostId,
    commenter: activity.commenter,
    created: iso(activity.createdAt),
    actionResults: activity.actionResults,
  };
}

export function automationRoutes(deps: Pick<AppDeps, 'config' | 'storage' | 'clock'>, publishing: Publishing): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = new AutomationStore(deps.storage.driver);
  const missing = (id: string) => new ApiError(404, 101, 'No automation with this id for this profile.', { action: ACTION, details: { id: id.slice(0, 64) } });

  routes.post('/', describe({ summary: 'Create a comment auto-reply automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', request: CreateAutomationRequest, response: CreateAutomationResponse, name: 'CreateAutomationResponse', errors: [163, NOT_FOUND] }), async (c) => {
    const parsed = CreateAutomationRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const request = parsed.data;
    const profile = c.get('profile');
    if (request.postId !== undefined && !(await publishing.store.findPostOfProfile(profile.id, request.postId))) throw notFound(request.postId);
    const now = deps.clock();
    const automation: Automation = {
      id: newId('aut_'),
      profileId: profile.id,
      name: request.name ?? (request.triggerWords.join(', ').slice(0, 200) || 'Automation'),
      triggerWords: [...new Set(request.triggerWords.map((word) => word.trim()).filter(Boolean))],
      replyText: request.replyText,
      platforms: [...new Set(request.platforms)],
      postId: request.postId ?? null,
      paused: false,
      createdAt: now,
      updatedAt: now,
    };
    await store.insert(automation);
    return c.json({ status: 'success', automation: view(automation) });
  });

  routes.get('/', describe({ summary: "The profile's automations", tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', response: ListAutomationsResponse, name: 'ListAutomationsResponse' }), async (c) => c.json({ status: 'success', automations: (await store.list(c.get('profile').id)).map(view) }));

  routes.patch('/:id', describe({ summary: 'Pause or resume an automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', request: UpdateAutomationRequest, response: CreateAutomationResponse, errors: [NOT_FOUND] }), async (c) => {
    const parsed = UpdateAutomationRequest.safeParse(await readJsonObject(c, deps.config.maxBodyBytes, ACTION));
    if (!parsed.success) throw requestError(parsed.error, ACTION);
    const profile = c.get('profile');
    const id = c.req.param('id');
    if (!(await store.setPaused(profile.id, id, parsed.data.paused, deps.clock()))) throw missing(id);
    return c.json({ status: 'success', automation: view((await store.find(profile.id, id))!) });
  });

  routes.delete('/:id', describe({ summary: 'Delete an automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer', response: jsonAnswer('`{status, id, deleted: true}`'), errors: [NOT_FOUND] }), async (c) => {
    const id = c.req.param('id');
    if (!(await store.remove(c.get('profile').id, id))) throw missing(id);
    return c.json({ status: 'success', id, deleted: true });
  });

  routes.get('/:id/activity', describe({ summary: "An automation's replies and their outcome", tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'answer fields', response: AutomationActivityResponse, name: 'AutomationActivityResponse', errors: [NOT_FOUND] }), async (c) => {
    const id = c.req.param('id');
    const automation = await store.find(c.get('profile').id, id);
    if (!automation) throw missing(id);
    return c.json({ status: 'success', id, activity: (await store.activity(automation.id)).map(activityView) });
  });

  return routes;
}
