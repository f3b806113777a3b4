/**
 * @module
 * Every route of the service with its schemas: the one table the OpenAPI document (openapi-document.ts) is built
 * from. A route added to the app without a row here fails test/core/openapi.test.ts.
 *
 * `origin`: `spec` = the path and fields are the spec's; `named` = the spec describes the operation but does not
 * show its path or some fields (the paths and fields there are ours, spelled out in `ours`); `service` = ours alone
 * (hosted page, browser flows, operator endpoints, sandbox).
 */
import type { $ZodType } from 'zod/v4/core';
import * as admin from '@social-link-kit/protocol/admin.js';
import * as requests from '@social-link-kit/protocol/api-requests.js';
import {
  BotCodeResponse,
  CreateLinkSessionResponse,
  CreateProfileResponse,
  CredentialsConnectRequest,
  CredentialsConnectResponse,
  DeleteProfileResponse,
  DisconnectResponse,
  LinkSession,
  ListProfilesResponse,
  ListWebhooksResponse,
  NetworkStatusResponse,
  ProfileHealthResponse,
  RegisterWebhookResponse,
  RevokeLinkSessionResponse,
  SessionView,
  StartConnectResponse,
  UnlinkResponse,
  UnregisterWebhookResponse,
  UserResponse,
  WebhookDeliveriesResponse,
  RedeliverWebhookResponse,
  SandboxWebhookInboxResponse,
  SandboxWebhookInboxUrlResponse,
} from '@social-link-kit/protocol';
import {
  CreatePostResponse,
  DeletePostResponse,
  HistoryResponse,
  PostRecordSchema,
  RetryPostResponse,
  UpdatePostRequest,
  UpdatePostResponse,
  ValidatePostResponse,
} from '@social-link-kit/protocol/publishing/post-api.js';
import { PostRequest } from '@social-link-kit/protocol/publishing/post-request.js';
import { PostAttemptsResponse } from '@social-link-kit/protocol/publishing/post-attempts.js';
import { YoutubeCategoriesResponse, YoutubeWatermarkRemovedResponse, YoutubeWatermarkRequest, YoutubeWatermarkResponse } from '@social-link-kit/protocol/publishing/youtube-channel.js';
import * as analytics from '@social-link-kit/protocol/analytics/index.js';

export type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';
export type Auth = 'apiKey' | 'apiKeyAndProfileKey' | 'linkToken' | 'adminToken' | 'none' | 'telegramSecret';

export interface RouteDoc {
  method: HttpMethod;
  /** The Hono pattern, `:param` style. */
  path: string;
  summary: string;
  tag: string;
  auth: Auth;
  origin: 'spec' | 'named' | 'service';
  /** For `named`: what the spec does not show and we chose. */
  ours?: string;
  request?: $ZodType;
  /** A JSON answer's schema, or the content type of a non-JSON answer. */
  response: $ZodType | { contentType: string; description: string };
  /** JSON answers under one name, for components.schemas. */
  name?: string;
}

const html = { contentType: 'text/html', description: 'An HTML page (CSP without inline script).' };
const css = { contentType: 'text/css', description: 'Stylesheet.' };
const js = { contentType: 'text/javascript', description: 'Script.' };
const json = (description: string) => ({ contentType: 'application/json', description });
const file = { contentType: 'application/octet-stream', description: 'A media file (image or video).' };

/** A sandbox route (embedded stand-in of a network's API or a media host): ours, only with the sandbox on. */
function sandbox(method: HttpMethod, path: string, summary: string, response: RouteDoc['response'] = json('As the real network answers.')): RouteDoc {
  return { method, path, summary, tag: 'Sandbox', auth: 'none', origin: 'service', response };
}

/** A sandbox media address answering GET and HEAD alike. */
function sandboxMedia(path: string, summary: string): RouteDoc[] {
  return [sandbox('get', path, summary, file), sandbox('head', path, `${summary} (headers only)`, file)];
}

export const ROUTE_TABLE: RouteDoc[] = [
  // Link sessions (spec 4.6, 4.7)
  { method: 'post', path: '/api/profiles/link-sessions', summary: 'Create a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/profiles/link-sessions; error codes 501-513 (README "Errors")', request: requests.CreateLinkSessionRequestBody, response: CreateLinkSessionResponse, name: 'CreateLinkSessionResponse' },
  { method: 'get', path: '/api/profiles/link-sessions/:sessionId', summary: 'Read a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; fields completedAt, lastCompletedAt, completedNetworks, state', response: LinkSession, name: 'LinkSession' },
  { method: 'delete', path: '/api/profiles/link-sessions/:sessionId', summary: 'Revoke a link session', tag: 'Link sessions', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer fields', response: RevokeLinkSessionResponse, name: 'RevokeLinkSessionResponse' },
  // Profiles and linked accounts (spec 2.3, 2.4)
  { method: 'post', path: '/api/profiles', summary: 'Create a user profile (its Profile-Key is shown once)', tag: 'Profiles', auth: 'apiKey', origin: 'spec', request: requests.CreateProfileRequest, response: CreateProfileResponse, name: 'CreateProfileResponse' },
  { method: 'get', path: '/api/profiles', summary: 'List user profiles', tag: 'Profiles', auth: 'apiKey', origin: 'spec', response: ListProfilesResponse, name: 'ListProfilesResponse' },
  { method: 'delete', path: '/api/profiles', summary: 'Delete the user profile named by Profile-Key', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', response: DeleteProfileResponse, name: 'DeleteProfileResponse' },
  { method: 'delete', path: '/api/profiles/social', summary: 'Unlink a network from the profile', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', request: requests.UnlinkRequest, response: UnlinkResponse, name: 'UnlinkResponse' },
  { method: 'get', path: '/api/user', summary: 'The profile and its linked accounts (each with its health)', tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'spec', response: UserResponse, name: 'UserResponse' },
  { method: 'get', path: '/api/profiles/health', summary: "Health of the profile's linked accounts (status, renewals, last error, scopes)", tag: 'Profiles', auth: 'apiKeyAndProfileKey', origin: 'service', response: ProfileHealthResponse, name: 'ProfileHealthResponse' },
  { method: 'get', path: '/api/networks/status', summary: "Each network's status from recent connect and publish outcomes, or the operator's override", tag: 'Profiles', auth: 'apiKey', origin: 'service', response: NetworkStatusResponse, name: 'NetworkStatusResponse' },
  // Legacy JWT links (spec 5.5)
  { method: 'post', path: '/api/profiles/generateJWT', summary: 'Generate a legacy JWT link (deprecated)', tag: 'Legacy JWT links', auth: 'apiKeyAndProfileKey', origin: 'spec', request: requests.GenerateJwtRequest, response: requests.GenerateJwtResponse, name: 'GenerateJwtResponse' },
  { method: 'put', path: '/api/profiles/integration-key', summary: "Register the integration's public key for legacy JWT links", tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation: the spec names the integration package, not how it is managed', request: requests.IntegrationKeyRequest, response: requests.IntegrationKeyResponse, name: 'IntegrationKeyResponse' },
  { method: 'get', path: '/api/profiles/integration-key', summary: 'The keys that verify legacy JWT links', tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation', response: requests.IntegrationKeysResponse, name: 'IntegrationKeysResponse' },
  { method: 'delete', path: '/api/profiles/integration-key', summary: 'Reset the integration: every JWT link issued so far stops working', tag: 'Legacy JWT links', auth: 'apiKey', origin: 'named', ours: 'the whole operation', response: requests.IntegrationResetResponse, name: 'IntegrationResetResponse' },
  // Webhooks (spec 2.5, 4.5, 6)
  { method: 'post', path: '/api/hook/webhook', summary: 'Register a webhook', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', request: requests.RegisterWebhookRequest, response: RegisterWebhookResponse, name: 'RegisterWebhookResponse' },
  { method: 'get', path: '/api/hook/webhook', summary: 'List webhooks', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', response: ListWebhooksResponse, name: 'ListWebhooksResponse' },
  { method: 'delete', path: '/api/hook/webhook', summary: 'Unregister a webhook', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'spec', request: requests.UnregisterWebhookRequest, response: UnregisterWebhookResponse, name: 'UnregisterWebhookResponse' },
  { method: 'get', path: '/api/hook/webhook/deliveries', summary: 'The delivery log, newest first: status, attempts, response codes, body (query: action, limit)', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'service', response: WebhookDeliveriesResponse, name: 'WebhookDeliveriesResponse' },
  { method: 'post', path: '/api/hook/webhook/deliveries/:id/redeliver', summary: 'Send one delivery again now (same event id and body, fresh signature)', tag: 'Webhooks', auth: 'apiKeyAndProfileKey', origin: 'service', response: RedeliverWebhookResponse, name: 'RedeliverWebhookResponse' },
  // The hosted page's API (link token)
  { method: 'get', path: '/api/link/session', summary: 'The session as the hosted page shows it', tag: 'Hosted page API', auth: 'linkToken', origin: 'service', response: SessionView, name: 'SessionView' },
  { method: 'post', path: '/api/link/connect/:platform', summary: 'Start (oauth), complete (credentials) or get a bot code (telegram) for a network', tag: 'Hosted page API', auth: 'linkToken', origin: 'service', request: CredentialsConnectRequest, response: StartConnectResponse, name: 'StartConnectResponse' },
  { method: 'delete', path: '/api/link/accounts/:platform', summary: 'Disconnect a network from the hosted page', tag: 'Hosted page API', auth: 'linkToken', origin: 'service', response: DisconnectResponse, name: 'DisconnectResponse' },
  // Browser flows and pages
  { method: 'get', path: '/link', summary: 'The hosted linking page ({linking_url})', tag: 'Browser', auth: 'none', origin: 'named', ours: 'served at {PUBLIC_URL}/link', response: html },
  { method: 'get', path: '/link/assets/:file', summary: "The hosted page's assets", tag: 'Browser', auth: 'none', origin: 'service', response: { contentType: 'application/octet-stream', description: 'Script, stylesheet or image.' } },
  { method: 'get', path: '/connect/start', summary: 'Opens the network sign-in (one-time ticket)', tag: 'Browser', auth: 'none', origin: 'service', response: { contentType: 'text/html', description: 'Redirect (302) to the network.' } },
  { method: 'get', path: '/connect/callback/:platform', summary: "The network's OAuth redirect URI", tag: 'Browser', auth: 'none', origin: 'service', response: html },
  { method: 'get', path: '/connect/result.js', summary: 'Script of the connect result page', tag: 'Browser', auth: 'none', origin: 'service', response: js },
  { method: 'get', path: '/connect/result.css', summary: 'Stylesheet of the connect result page', tag: 'Browser', auth: 'none', origin: 'service', response: css },
  { method: 'get', path: '/widget/:file', summary: 'The widget (`social-link.js`) or its texts of one locale (`<locale>.js`, loaded on demand by it), following the current build (5 min cache)', tag: 'Widget', auth: 'none', origin: 'service', response: js },
  { method: 'get', path: '/widget/:version/:file', summary: 'The widget or a locale file of one build: a build id from the manifest (immutable), or the `v1` channel or package version (5 min cache)', tag: 'Widget', auth: 'none', origin: 'service', response: js },
  { method: 'get', path: '/widget/manifest.json', summary: 'Widget versions with their SRI hashes', tag: 'Widget', auth: 'none', origin: 'service', response: requests.WidgetManifest, name: 'WidgetManifest' },
  { method: 'post', path: '/webhooks/telegram/:secret', summary: "The Telegram bot's webhook (completes bot-code links)", tag: 'Network callbacks', auth: 'telegramSecret', origin: 'service', request: requests.TelegramUpdate, response: { contentType: 'application/json', description: '`{ok: true}`' } },
  { method: 'post', path: '/webhooks/tiktok', summary: "TikTok's webhook (post.publish.publicly_available resolves a pending tiktok post); signed with TikTok-Signature", tag: 'Network callbacks', auth: 'none', origin: 'service', response: json('`{status, handled}`') },
  // Operations
  { method: 'get', path: '/health', summary: 'The process is up', tag: 'Operations', auth: 'none', origin: 'service', response: requests.HealthResponse, name: 'HealthResponse' },
  { method: 'get', path: '/ready', summary: 'Database reachable and writable, jobs running (503 otherwise)', tag: 'Operations', auth: 'none', origin: 'service', response: requests.ReadyResponse, name: 'ReadyResponse' },
  { method: 'get', path: '/metrics', summary: 'Prometheus metrics (admin token, or METRICS_PORT)', tag: 'Operations', auth: 'adminToken', origin: 'service', response: { contentType: 'text/plain; version=0.0.4', description: 'Prometheus text format.' } },
  { method: 'get', path: '/api/openapi.json', summary: 'This document', tag: 'Operations', auth: 'none', origin: 'service', response: { contentType: 'application/json', description: 'OpenAPI 3.1.' } },
  { method: 'get', path: '/api/reference', summary: 'This document as an HTML reference', tag: 'Operations', auth: 'none', origin: 'service', response: html },
  { method: 'get', path: '/api/reference.css', summary: 'Stylesheet of the reference page', tag: 'Operations', auth: 'none', origin: 'service', response: css },
  // Admin API (ADMIN_TOKEN)
  { method: 'post', path: '/admin/api/accounts', summary: 'Create an account (its API key is shown once)', tag: 'Admin', auth: 'adminToken', origin: 'service', request: admin.AdminCreateAccountRequest, response: admin.AdminCreateAccountResponse, name: 'AdminCreateAccountResponse' },
  { method: 'get', path: '/admin/api/accounts', summary: 'List accounts', tag: 'Admin', auth: 'adminToken', origin: 'service', response: admin.AdminAccountListResponse, name: 'AdminAccountListResponse' },
  { method: 'get', path: '/admin/api/accounts/:id', summary: 'Show an account', tag: 'Admin', auth: 'adminToken', origin: 'service', response: admin.AdminAccountResponse, name: 'AdminAccountResponse' },
  { method: 'patch', path: '/admin/api/accounts/:id', summary: 'Change plan, add-ons, domains, origins, instagram method, twitter policy, branding', tag: 'Admin', auth: 'adminToken', origin: 'service', request: admin.AdminAccountChanges, response: admin.AdminAccountResponse },
  { method: 'post', path: '/admin/api/accounts/:id/api-key', summary: "Rotate the account's API key (shown once)", tag: 'Admin', auth: 'adminToken', origin: 'service', response: admin.AdminApiKeyResponse, name: 'AdminApiKeyResponse' },
  { method: 'get', path: '/admin/api/accounts/:id/linked-accounts', summary: 'Profiles with their linked accounts and token state', tag: 'Admin', auth: 'adminToken', origin: 'service', response: admin.AdminLinkedAccountsResponse, name: 'AdminLinkedAccountsResponse' },
  { method: 'put', path: '/admin/api/profiles/:id/quota', summary: "Set a profile's monthly post quota", tag: 'Admin', auth: 'adminToken', origin: 'service', request: admin.AdminQuotaRequest, response: admin.AdminQuotaResponse, name: 'AdminQuotaResponse' },
  // Publishing (spec 2.1-2.3, 3, 4.2-4.4; paths as DESIGN.md names them)
  { method: 'post', path: '/api/post', summary: 'Create a post (now, scheduled or held for approval)', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/post', request: PostRequest, response: CreatePostResponse, name: 'CreatePostResponse' },
  { method: 'post', path: '/api/validate/post', summary: 'Check a post body; nothing is stored or published', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/validate/post', request: PostRequest, response: ValidatePostResponse, name: 'ValidatePostResponse' },
  { method: 'get', path: '/api/post/:id', summary: 'Read a post', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/post/{id}', response: PostRecordSchema, name: 'PostRecord' },
  { method: 'get', path: '/api/post/:id/attempts', summary: "A post's timeline: every attempt per network (when, trigger, the network's code and message, retry time, reconcile verdict)", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'service', response: PostAttemptsResponse, name: 'PostAttempts' },
  { method: 'get', path: '/api/capacity', summary: "The networks' rolling per-account budgets as a post due at `at` would meet them (query: platform, at); a scheduled post over one is refused at create", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'service', response: json('`{status, at, capacity: [{platform, budget, describes, limit, windowMs, used, availableAt}]}`') },
  { method: 'patch', path: '/api/post', summary: 'Approve, pause, reschedule or annotate a post', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id, approved?, scheduledPause?, scheduleDate?, notes?, youTubeOptions?}', request: UpdatePostRequest, response: UpdatePostResponse, name: 'UpdatePostResponse' },
  { method: 'delete', path: '/api/post', summary: 'Delete a post ({id}, {bulk} or {autoRepostId})', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id} | {bulk: [ids]} | {autoRepostId}', response: DeletePostResponse, name: 'DeletePostResponse' },
  { method: 'put', path: '/api/post/retry', summary: 'Retry a post in error, once', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path; body {id}', response: RetryPostResponse, name: 'RetryPostResponse' },
  { method: 'post', path: '/api/post/youTubeWatermark', summary: "Set the youtube channel's watermark from an image URL", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'spec', request: YoutubeWatermarkRequest, response: YoutubeWatermarkResponse, name: 'YoutubeWatermarkResponse' },
  { method: 'delete', path: '/api/post/youTubeWatermark', summary: "Remove the youtube channel's watermark", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'service', response: YoutubeWatermarkRemovedResponse, name: 'YoutubeWatermarkRemovedResponse' },
  { method: 'get', path: '/api/post/youtubeCategories/:region', summary: "youtube's video categories of a region, with assignable", tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'spec', response: YoutubeCategoriesResponse, name: 'YoutubeCategoriesResponse' },
  { method: 'get', path: '/api/history', summary: 'Post history (query: status, lastDays, limit, platforms, startDate, endDate, autoRepostId, type)', tag: 'Posts', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path /api/history', response: HistoryResponse, name: 'HistoryResponse' },
  { method: 'post', path: '/api/media/urlExists', summary: 'Does a media URL answer (HEAD)?', tag: 'Media', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path', response: json('`{status, exists}`') },
  { method: 'post', path: '/api/media/verifyUrl', summary: 'Check a media URL as a post would (type, size)', tag: 'Media', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path', response: json('The media check result.') },
  { method: 'get', path: '/media/:name', summary: 'Converted media at a signed, expiring address (for pull-based networks)', tag: 'Media', auth: 'none', origin: 'service', response: file },
  { method: 'head', path: '/media/:name', summary: 'Converted media (headers only)', tag: 'Media', auth: 'none', origin: 'service', response: file },
  { method: 'get', path: '/s/:code', summary: 'Short link (shortenLinks): redirect to the original URL', tag: 'Posts', auth: 'none', origin: 'service', response: { contentType: 'text/plain', description: 'Redirect (302).' } },
  // Analytics, comments, automations, moderation (spec 4.4, 5; docs/analytics.md)
  { method: 'post', path: '/api/analytics/post', summary: 'Analytics of posts, by service post id or by network post id', tag: 'Analytics', auth: 'apiKeyAndProfileKey', origin: 'spec', request: analytics.PostAnalyticsRequest, response: analytics.PostAnalyticsResponse, name: 'PostAnalyticsResponse' },
  { method: 'get', path: '/api/analytics/post/:id/history', summary: "A service post's stored analytics snapshots per network (last days)", tag: 'Analytics', auth: 'apiKeyAndProfileKey', origin: 'service', response: json('`{status, id, <platform>: [{takenAt, analytics}]}`') },
  { method: 'post', path: '/api/analytics/social', summary: 'Account analytics of the linked networks', tag: 'Analytics', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'body and answer fields', request: analytics.SocialAnalyticsRequest, response: analytics.SocialAnalyticsResponse, name: 'SocialAnalyticsResponse' },
  { method: 'get', path: '/api/comments/:id', summary: 'The comments of a service post, per network', tag: 'Comments', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer fields', response: analytics.CommentsResponse, name: 'CommentsResponse' },
  { method: 'post', path: '/api/comments/:id/reply', summary: 'Reply to a comment on one network', tag: 'Comments', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', request: analytics.CommentReplyRequest, response: analytics.CommentReplyResponse, name: 'CommentReplyResponse' },
  { method: 'post', path: '/api/automations', summary: 'Create a comment auto-reply automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', request: analytics.CreateAutomationRequest, response: analytics.CreateAutomationResponse, name: 'CreateAutomationResponse' },
  { method: 'get', path: '/api/automations', summary: "The profile's automations", tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', response: analytics.ListAutomationsResponse, name: 'ListAutomationsResponse' },
  { method: 'patch', path: '/api/automations/:id', summary: 'Pause or resume an automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and fields', request: analytics.UpdateAutomationRequest, response: analytics.CreateAutomationResponse },
  { method: 'delete', path: '/api/automations/:id', summary: 'Delete an automation', tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'path and answer', response: json('`{status, id, deleted: true}`') },
  { method: 'get', path: '/api/automations/:id/activity', summary: "An automation's replies and their outcome", tag: 'Automations', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'answer fields', response: analytics.AutomationActivityResponse, name: 'AutomationActivityResponse' },
  { method: 'post', path: '/api/validate/moderation', summary: 'Moderate a text and media URLs before posting', tag: 'Moderation', auth: 'apiKeyAndProfileKey', origin: 'named', ours: 'body {post, mediaUrls?} and answer fields', response: json('`{status, flagged, text: {flagged, matches, censored}, mediaUrls: [{url, flagged, matches}]}`') },
  { method: 'get', path: '/api/sandbox/feed-url', summary: 'A fresh address of the profile’s sandbox feed (it holds a key: treat it as a password)', tag: 'Sandbox', auth: 'apiKeyAndProfileKey', origin: 'service', response: json('`{status, url}`.') },
  { method: 'post', path: '/api/sandbox/webhook-inbox', summary: 'The profile’s sandbox webhook inbox address, to register as a webhook while the sandbox runs (it holds a key: treat it as a password)', tag: 'Sandbox', auth: 'apiKeyAndProfileKey', origin: 'service', response: SandboxWebhookInboxUrlResponse, name: 'SandboxWebhookInboxUrlResponse' },
  { method: 'get', path: '/api/sandbox/webhook-inbox', summary: 'What the profile’s sandbox webhook inbox received: headers, body, signature check (the last 50)', tag: 'Sandbox', auth: 'apiKeyAndProfileKey', origin: 'service', response: SandboxWebhookInboxResponse, name: 'SandboxWebhookInboxResponse' },
  sandbox('post', '/sandbox/webhook-inbox/:key', 'The sandbox webhook inbox: receives a delivery and checks its Standard Webhooks signature', json('`{status}`')),
  { method: 'post', path: '/api/sandbox/accounts', summary: 'Link a sandbox account without a browser (for your tests)', tag: 'Sandbox', auth: 'apiKeyAndProfileKey', origin: 'service', response: json('The linked sandbox account.') },
  // Sandbox networks and media host (SANDBOX_NETWORKS auto/all)
  sandbox('get', '/sandbox/feed', 'What each sandbox network published', html),
  sandbox('get', '/sandbox/oauth/userinfo', 'Sandbox OAuth server: who the access token belongs to'),
  sandbox('get', '/sandbox/feed.css', 'Stylesheet of the feed', css),
  sandbox('get', '/sandbox/net/:platform/posts', 'Sandbox network: list posts'),
  sandbox('post', '/sandbox/net/:platform/posts', 'Sandbox network: publish'),
  sandbox('get', '/sandbox/net/:platform/posts/:id', 'Sandbox network: read a post'),
  sandbox('delete', '/sandbox/net/:platform/posts/:id', 'Sandbox network: delete a post'),
  sandbox('post', '/sandbox/net/:platform/posts/:id/comments', 'Sandbox network: comment'),
  sandbox('get', '/sandbox/net/:platform/p/:id', 'Sandbox network: a post page', html),
  sandbox('get', '/sandbox/profile/:did/post/:rkey', 'Sandbox bluesky: a post page', html),
  sandbox('get', '/sandbox/telegram/c/:chat/:id', 'Sandbox telegram: a message page', html),
  sandbox('post', '/sandbox/xrpc/com.atproto.server.refreshSession', 'Sandbox bluesky PDS: renew a session'),
  sandbox('post', '/sandbox/xrpc/com.atproto.repo.createRecord', 'Sandbox bluesky PDS: create a record'),
  sandbox('post', '/sandbox/xrpc/com.atproto.repo.deleteRecord', 'Sandbox bluesky PDS: delete a record'),
  sandbox('get', '/sandbox/xrpc/com.atproto.repo.getRecord', 'Sandbox bluesky PDS: read a record'),
  sandbox('post', '/sandbox/xrpc/com.atproto.repo.uploadBlob', 'Sandbox bluesky PDS: upload a blob'),
  sandbox('get', '/sandbox/xrpc/com.atproto.sync.getBlob', 'Sandbox bluesky PDS: read a blob', file),
  // Sandbox engagement (the generic sandbox API: insights, comments, audience actions)
  sandbox('get', '/sandbox/net/:platform/insights', 'Sandbox network: post insights'),
  sandbox('get', '/sandbox/net/:platform/accounts/:accountId/insights', 'Sandbox network: account insights'),
  sandbox('put', '/sandbox/net/:platform/accounts/:accountId/insights-fault', 'Sandbox network: make account insights fail (tests)'),
  sandbox('put', '/sandbox/net/:platform/accounts/:accountId/refresh-switch', "Sandbox network: make the account's token renewals fail or change (tests; API key)"),
  sandbox('get', '/sandbox/net/:platform/accounts/:accountId/refresh-switch', "Sandbox network: the account's renewal switch and how many renewals it served (tests; API key)"),
  sandbox('get', '/sandbox/net/:platform/posts/:id/comments', 'Sandbox network: list comments'),
  sandbox('post', '/sandbox/net/:platform/posts/:id/replies', 'Sandbox network: reply to a comment'),
  sandbox('post', '/sandbox/net/:platform/p/:id/audience-comments', 'Sandbox network: someone comments (tests)'),
  sandbox('post', '/sandbox/net/:platform/accounts/:accountId/audience-messages', 'Sandbox network: someone sends a message (tests)'),
  sandbox('post', '/sandbox/net/:platform/comments/:commentId/private-replies', 'Sandbox network: private reply to a comment'),
  sandbox('post', '/sandbox/telegram-bot', 'Sandbox telegram bot: send a bot code from a sandbox chat (completes the link)'),
  sandbox('get', '/sandbox/xrpc/app.bsky.feed.getPostThread', 'Sandbox bluesky: a post thread'),
  // Sandbox stand-ins of each network's own API (the real adapters talk to these in sandbox mode)
  sandbox('post', '/sandbox/facebook/:version/:page/feed', 'Sandbox facebook: publish to a page feed'),
  sandbox('post', '/sandbox/facebook/:version/:page/photos', 'Sandbox facebook: publish a photo'),
  sandbox('post', '/sandbox/facebook/:version/:page/videos', 'Sandbox facebook: start or publish a video'),
  sandbox('post', '/sandbox/facebook/:version/:page/video_reels', 'Sandbox facebook: publish a reel'),
  sandbox('post', '/sandbox/facebook/video-upload/:version/:video', 'Sandbox facebook: upload video bytes'),
  sandbox('get', '/sandbox/facebook/:version/:page/published_posts', 'Sandbox facebook: published posts'),
  sandbox('get', '/sandbox/facebook/:version/:id', 'Sandbox facebook: read an object'),
  sandbox('delete', '/sandbox/facebook/:version/:id', 'Sandbox facebook: delete an object'),
  sandbox('post', '/sandbox/facebook/:version/:id/comments', 'Sandbox facebook: comment'),
  sandbox('get', '/sandbox/facebook/:version/:id/comments', 'Sandbox facebook: list comments'),
  sandbox('get', '/sandbox/facebook/:version/:id/insights', 'Sandbox facebook: post insights'),
  sandbox('post', '/sandbox/facebook/:version/:page/messages', 'Sandbox facebook: private reply to a comment'),
  sandbox('get', '/sandbox/facebook/p/:id', 'Sandbox facebook: a post page', html),
  sandbox('post', '/sandbox/instagram/:version/:user/media', 'Sandbox instagram: create a media container'),
  sandbox('get', '/sandbox/instagram/:version/:user/media', 'Sandbox instagram: list media'),
  sandbox('post', '/sandbox/instagram/:version/:user/media_publish', 'Sandbox instagram: publish a container'),
  sandbox('get', '/sandbox/instagram/:version/:id', 'Sandbox instagram: read an object'),
  sandbox('post', '/sandbox/instagram/:version/:id/comments', 'Sandbox instagram: comment'),
  sandbox('get', '/sandbox/instagram/:version/:id/comments', 'Sandbox instagram: list comments'),
  sandbox('post', '/sandbox/instagram/:version/:id/replies', 'Sandbox instagram: reply to a comment'),
  sandbox('get', '/sandbox/instagram/:version/:id/insights', 'Sandbox instagram: media insights'),
  sandbox('post', '/sandbox/instagram/:version/:user/messages', 'Sandbox instagram: private reply to a comment'),
  sandbox('get', '/sandbox/instagram/p/:id', 'Sandbox instagram: a post page', html),
  sandbox('post', '/sandbox/threads/:version/:user/threads', 'Sandbox threads: create a container'),
  sandbox('get', '/sandbox/threads/:version/:user/threads', 'Sandbox threads: list threads'),
  sandbox('post', '/sandbox/threads/:version/:user/threads_publish', 'Sandbox threads: publish a container'),
  sandbox('get', '/sandbox/threads/:version/me', 'Sandbox threads: the token\'s account, with is_eligible_for_geo_gating'),
  sandbox('put', '/sandbox/threads/accounts/:accountId/geo-gating', 'Sandbox threads: switch an account\'s geo-gating eligibility (test switch)'),
  sandbox('get', '/sandbox/threads/:version/:id', 'Sandbox threads: read an object'),
  sandbox('get', '/sandbox/threads/:version/:id/insights', 'Sandbox threads: media insights'),
  sandbox('get', '/sandbox/threads/:version/:user/threads_insights', 'Sandbox threads: user insights'),
  sandbox('get', '/sandbox/threads/:version/:id/conversation', 'Sandbox threads: replies under a post'),
  sandbox('get', '/sandbox/threads/p/:id', 'Sandbox threads: a post page', html),
  sandbox('post', '/sandbox/youtube/upload/youtube/v3/videos', 'Sandbox youtube: start a resumable upload'),
  sandbox('put', '/sandbox/youtube/upload/youtube/v3/videos', 'Sandbox youtube: upload video bytes'),
  sandbox('get', '/sandbox/youtube/youtube/v3/videos', 'Sandbox youtube: read videos'),
  sandbox('delete', '/sandbox/youtube/youtube/v3/videos', 'Sandbox youtube: delete a video'),
  sandbox('post', '/sandbox/youtube/youtube/v3/commentThreads', 'Sandbox youtube: comment'),
  sandbox('get', '/sandbox/youtube/watch', 'Sandbox youtube: a video page', html),
  sandbox('post', '/sandbox/youtube/upload/youtube/v3/watermarks/set', 'Sandbox youtube: set the channel watermark'),
  sandbox('post', '/sandbox/youtube/youtube/v3/watermarks/unset', 'Sandbox youtube: remove the channel watermark'),
  sandbox('get', '/sandbox/youtube/youtube/v3/videoCategories', 'Sandbox youtube: video categories of a region'),
  sandbox('post', '/sandbox/oauth/token', 'Sandbox OAuth server: exchange a consent code (PKCE) or renew tokens (refresh tokens rotate)'),
  sandbox('post', '/sandbox/tiktok/v2/post/publish/creator_info/query', 'Sandbox tiktok: creator info'),
  sandbox('post', '/sandbox/tiktok/v2/post/publish/video/init', 'Sandbox tiktok: start a video post'),
  sandbox('post', '/sandbox/tiktok/v2/post/publish/status/fetch', 'Sandbox tiktok: publish status'),
  sandbox('post', '/sandbox/tiktok/open_api/v1.3/business/comment/create', 'Sandbox tiktok: comment on a video (Business API)'),
  sandbox('post', '/sandbox/twitter/2/tweets', 'Sandbox twitter: post a tweet'),
  sandbox('delete', '/sandbox/twitter/2/tweets/:id', 'Sandbox twitter: delete a tweet'),
  sandbox('get', '/sandbox/twitter/2/users/:id/tweets', "Sandbox twitter: a user's tweets"),
  sandbox('post', '/sandbox/twitter/2/media/upload', 'Sandbox twitter: media upload (init, append, finalize)'),
  sandbox('get', '/sandbox/twitter/2/media/upload', 'Sandbox twitter: media processing status'),
  sandbox('get', '/sandbox/twitter/media/:id', 'Sandbox twitter: an uploaded media file', file),
  sandbox('get', '/sandbox/twitter/i/web/status/:id', 'Sandbox twitter: a tweet page', html),
  sandbox('post', '/sandbox/linkedin/rest/posts', 'Sandbox linkedin: create a post'),
  sandbox('get', '/sandbox/linkedin/rest/posts', "Sandbox linkedin: an author's posts"),
  sandbox('delete', '/sandbox/linkedin/rest/posts/:urn', 'Sandbox linkedin: delete a post'),
  sandbox('post', '/sandbox/linkedin/rest/images', 'Sandbox linkedin: start an image upload'),
  sandbox('post', '/sandbox/linkedin/rest/videos', 'Sandbox linkedin: start, or finalize, a video upload'),
  sandbox('put', '/sandbox/linkedin/upload/:kind/:id/:part?', 'Sandbox linkedin: upload image or video bytes'),
  sandbox('get', '/sandbox/linkedin/media/:urn', 'Sandbox linkedin: an uploaded media file', file),
  sandbox('post', '/sandbox/linkedin/rest/socialActions/:urn/comments', 'Sandbox linkedin: comment'),
  sandbox('get', '/sandbox/linkedin/feed/update/:urn', 'Sandbox linkedin: a post page', html),
  // The networks' own analytics and comment reads (twitter-, youtube-, linkedin-, tiktok-engagement-api.ts).
  sandbox('get', '/sandbox/twitter/2/tweets', 'Sandbox twitter: tweets with their metrics'),
  sandbox('get', '/sandbox/twitter/2/tweets/search/recent', "Sandbox twitter: the replies in a tweet's conversation"),
  sandbox('get', '/sandbox/twitter/2/users/:id', "Sandbox twitter: a user's public metrics"),
  sandbox('get', '/sandbox/youtube/youtube/v3/channels', "Sandbox youtube: the channel's statistics"),
  sandbox('get', '/sandbox/youtube/youtube/v3/commentThreads', "Sandbox youtube: a video's comment threads"),
  sandbox('post', '/sandbox/youtube/youtube/v3/comments', 'Sandbox youtube: reply to a comment'),
  sandbox('get', '/sandbox/linkedin/rest/memberCreatorPostAnalytics', "Sandbox linkedin: a member post's analytics"),
  sandbox('get', '/sandbox/linkedin/rest/organizationalEntityShareStatistics', "Sandbox linkedin: an organization's post statistics"),
  sandbox('get', '/sandbox/linkedin/rest/memberFollowersCount', "Sandbox linkedin: a member's followers"),
  sandbox('get', '/sandbox/linkedin/rest/networkSizes/:urn', "Sandbox linkedin: an organization's followers"),
  sandbox('get', '/sandbox/linkedin/rest/posts/:urn', 'Sandbox linkedin: a post'),
  sandbox('get', '/sandbox/linkedin/rest/socialActions/:urn/comments', "Sandbox linkedin: a post's comments"),
  sandbox('post', '/sandbox/tiktok/v2/video/query', "Sandbox tiktok: the creator's videos with their counts"),
  sandbox('get', '/sandbox/tiktok/v2/user/info', "Sandbox tiktok: the creator's stats"),
  sandbox('post', '/sandbox/reddit/api/submit', 'Sandbox reddit: submit a post'),
  sandbox('post', '/sandbox/reddit/api/del', 'Sandbox reddit: delete a post'),
  sandbox('post', '/sandbox/reddit/api/comment', 'Sandbox reddit: comment'),
  sandbox('get', '/sandbox/reddit/user/:name/submitted', "Sandbox reddit: a user's posts"),
  sandbox('get', '/sandbox/reddit/r/:sr/comments/:id', 'Sandbox reddit: a post page', html),
  sandbox('get', '/sandbox/reddit/r/:sr/comments/:id/*', 'Sandbox reddit: a post page (with its slug)', html),
  sandbox('post', '/sandbox/reddit/api/media/asset.json', 'Sandbox reddit: an image upload lease'),
  sandbox('post', '/sandbox/reddit/media-upload', 'Sandbox reddit: the upload bucket (multipart form from a lease)'),
  sandbox('get', '/sandbox/reddit/media-upload/:key{.+}', 'Sandbox reddit: an uploaded image', file),
  sandbox('post', '/sandbox/pinterest/v5/pins', 'Sandbox pinterest: create a pin'),
  sandbox('delete', '/sandbox/pinterest/v5/pins/:id', 'Sandbox pinterest: delete a pin'),
  sandbox('get', '/sandbox/pinterest/v5/boards', 'Sandbox pinterest: boards'),
  sandbox('get', '/sandbox/pinterest/v5/boards/:id/pins', "Sandbox pinterest: a board's pins"),
  sandbox('post', '/sandbox/pinterest/v5/media', 'Sandbox pinterest: register a video upload'),
  sandbox('get', '/sandbox/pinterest/v5/media/:id', 'Sandbox pinterest: video upload status'),
  sandbox('post', '/sandbox/pinterest/upload/:id', 'Sandbox pinterest: upload video bytes'),
  sandbox('get', '/sandbox/pinterest/media/:id', 'Sandbox pinterest: an uploaded media file', file),
  sandbox('get', '/sandbox/pinterest/pin/:id', 'Sandbox pinterest: a pin page', html),
  sandbox('get', '/sandbox/pinterest/pin/:id/*', 'Sandbox pinterest: a pin page (any sub-path)', html),
  sandbox('get', '/sandbox/gmb/mybusinessaccountmanagement/v1/accounts', 'Sandbox gmb: business accounts'),
  sandbox('get', '/sandbox/gmb/mybusinessbusinessinformation/v1/accounts/:account/locations', "Sandbox gmb: an account's locations"),
  sandbox('post', '/sandbox/gmb/mybusiness/v4/accounts/:account/locations/:location/localPosts', 'Sandbox gmb: create a local post'),
  sandbox('get', '/sandbox/gmb/mybusiness/v4/accounts/:account/locations/:location/localPosts', "Sandbox gmb: a location's local posts"),
  sandbox('get', '/sandbox/gmb/mybusiness/v4/accounts/:account/locations/:location/localPosts/:post', 'Sandbox gmb: a local post'),
  sandbox('delete', '/sandbox/gmb/mybusiness/v4/accounts/:account/locations/:location/localPosts/:post', 'Sandbox gmb: delete a local post'),
  sandbox('get', '/sandbox/snapchat/v1/me/public_profile', "Sandbox snapchat: the user's public profile"),
  sandbox('post', '/sandbox/snapchat/v1/public_profiles/:profile/media', 'Sandbox snapchat: create an encrypted media container'),
  sandbox('post', '/sandbox/snapchat/v1/media/:media/multipart-upload-v2', 'Sandbox snapchat: add a media part, or finalize the upload'),
  sandbox('post', '/sandbox/snapchat/v1/public_profiles/:profile/:collection', 'Sandbox snapchat: post a story, saved story or spotlight'),
  sandbox('get', '/sandbox/snapchat/v1/public_profiles/:profile/:collection', "Sandbox snapchat: a profile's stories, saved stories or spotlights"),
  sandbox('get', '/sandbox/snapchat/media/:media', 'Sandbox snapchat: an uploaded media file', file),
  sandbox('get', '/sandbox/snapchat/p/:id', 'Sandbox snapchat: a post page', html),
  ...sandboxMedia('/sandbox/media/:name', 'Sandbox media host: a test file'),
  ...sandboxMedia('/sandbox/media/stock/:name', 'Sandbox media host: a stock file'),
  ...sandboxMedia('/sandbox/media/mode/get-fails/:code/:name', 'Sandbox media host: HEAD works, GET fails with {code}'),
  ...sandboxMedia('/sandbox/media/mode/head-blocked/:name', 'Sandbox media host: HEAD refused'),
  ...sandboxMedia('/sandbox/media/mode/oversized/:name', 'Sandbox media host: larger than declared'),
  ...sandboxMedia('/sandbox/media/mode/redirect-loopback/:name', 'Sandbox media host: redirects to loopback'),
  ...sandboxMedia('/sandbox/media/mode/redirect-private/:name', 'Sandbox media host: redirects to a private address'),
  ...sandboxMedia('/sandbox/media/mode/redirect/:name', 'Sandbox media host: redirects'),
  ...sandboxMedia('/sandbox/media/mode/slow/:name', 'Sandbox media host: answers slowly'),
  ...sandboxMedia('/sandbox/media/mode/status/:code/:name', 'Sandbox media host: answers {code}'),
  ...sandboxMedia('/sandbox/media/mode/wrong-type/:name', 'Sandbox media host: wrong content type'),
  // Embedded sandbox (SANDBOX_NETWORKS auto/all)
  { method: 'get', path: '/sandbox/authorize', summary: 'Sandbox network consent page', tag: 'Sandbox', auth: 'none', origin: 'service', response: html },
  { method: 'post', path: '/sandbox/authorize', summary: 'Sandbox consent decision', tag: 'Sandbox', auth: 'none', origin: 'service', response: { contentType: 'text/html', description: 'Redirect (302) back to the service.' } },
  { method: 'get', path: '/sandbox/sandbox.css', summary: 'Sandbox stylesheet', tag: 'Sandbox', auth: 'none', origin: 'service', response: css },
  { method: 'post', path: '/sandbox/xrpc/com.atproto.server.createSession', summary: 'Sandbox bluesky PDS: app password login', tag: 'Sandbox', auth: 'none', origin: 'service', response: { contentType: 'application/json', description: 'An atproto session.' } },
];

/** The other answers of a connect call, listed as alternatives in the document. */
export const CONNECT_ALTERNATIVES = { CredentialsConnectResponse, BotCodeResponse };
