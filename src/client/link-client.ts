/**
 * @module
 * `createLinkClient`: the integrator backend's typed client for the link-session service. Runs in Node 20+
 * and browsers (any `fetch`). Every response is checked against the protocol schemas; every failure throws
 * `LinkApiError` carrying the spec's numeric `code`. Never use it in a browser with your API key.
 */
import type { z } from 'zod';
import {
  CreateLinkSessionResponse,
  CreateProfileResponse,
  DeleteProfileResponse,
  LiftSuspensionResponse,
  ErrorEnvelope,
  LinkSession,
  ListProfilesResponse,
  RevokeLinkSessionResponse,
  UnlinkResponse,
  UserResponse,
  ProfileHealthResponse,
  NetworkStatusResponse,
  ListWebhooksResponse,
  RegisterWebhookResponse,
  UnregisterWebhookResponse,
  WebhookDeliveriesResponse,
  RedeliverWebhookResponse,
  SandboxWebhookInboxResponse,
  SandboxWebhookInboxUrlResponse,
  type CreateLinkSessionRequest,
  type UnlinkableNetwork,
  type WebhookAction,
} from '../protocol/index.js';
import { CLIENT_ERROR_CODES, LinkApiError } from './errors.js';
import { publishingMethods } from './publishing-methods.js';
import { analyticsMethods } from './analytics-methods.js';

export interface LinkClientOptions {
  /** The service base address including `/api`, e.g. `https://link.example.com/api`. */
  baseUrl: string;
  apiKey: string;
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
  /** Your own X developer app (spec 5.6): sent as `X-Twitter-OAuth1-Api-Key/-Secret`; twitter-bound posts need it (419 otherwise). */
  twitterApp?: { apiKey: string; apiSecret: string };
}

export interface CallOptions {
  /** Selects a user profile; without it the Primary Profile acts. */
  profileKey?: string;
  signal?: AbortSignal;
}

export type LinkClient = ReturnType<typeof createLinkClient>;

export function createLinkClient(options: LinkClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);

  async function call<T extends z.ZodType>(
    schema: T,
    method: string,
    path: string,
    body: unknown,
    callOptions: CallOptions = {},
  ): Promise<z.infer<T>> {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.apiKey}`, Accept: 'application/json' };
    if (callOptions.profileKey !== undefined) headers['Profile-Key'] = callOptions.profileKey;
    if (options.twitterApp) {
      headers['X-Twitter-OAuth1-Api-Key'] = options.twitterApp.apiKey;
      headers['X-Twitter-OAuth1-Api-Secret'] = options.twitterApp.apiSecret;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetchImpl(`${baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: callOptions.signal,
      });
    } catch (cause) {
      throw new LinkApiError(
        0,
        { status: 'error', action: 'request', code: CLIENT_ERROR_CODES.network, message: `Request failed: ${String(cause)}`, retryAvailable: true },
        { cause },
      );
    }
    const json: unknown = await response.json().catch(() => undefined);
    const failed = ErrorEnvelope.safeParse(json);
    if (failed.success) throw new LinkApiError(response.status, failed.data);
    const parsed = schema.safeParse(json);
    if (!response.ok || !parsed.success) {
      throw new LinkApiError(response.status, {
        status: 'error',
        action: 'request',
        code: CLIENT_ERROR_CODES.invalidResponse,
        message: `Unexpected response (HTTP ${response.status}) from ${method} ${path}.`,
        details: parsed.success ? undefined : parsed.error.issues,
      });
    }
    return parsed.data;
  }

  const sessionPath = (sessionId: string) => `/profiles/link-sessions/${encodeURIComponent(sessionId)}`;

  return {
    /** Creates a link session (spec 4.6). The returned `url` is a password: give it to one user only. */
    createLinkSession: (request: CreateLinkSessionRequest = {}, call_?: CallOptions) =>
      call(CreateLinkSessionResponse, 'POST', '/profiles/link-sessions', request, call_),
    /** Reads a session: state, `completedAt`, `lastCompletedAt`, `completedNetworks` (spec 4.7). */
    getLinkSession: (sessionId: string, call_?: CallOptions) => call(LinkSession, 'GET', sessionPath(sessionId), undefined, call_),
    /** Revokes a session; the link stops working at once. Revoking twice is not an error. */
    revokeLinkSession: (sessionId: string, call_?: CallOptions) =>
      call(RevokeLinkSessionResponse, 'DELETE', sessionPath(sessionId), undefined, call_),
    /** Unlinks a network from the profile (spec 4.1). Succeeds even when it was not linked. */
    unlinkSocial: (platform: UnlinkableNetwork, call_?: CallOptions) =>
      call(UnlinkResponse, 'DELETE', '/profiles/social', { platform }, call_),
    /** The profile and its linked accounts. */
    getUser: (call_?: CallOptions) => call(UserResponse, 'GET', '/user', undefined, call_),
    /** Health of the profile's linked accounts: status, last and next renewal, token expiry, last error, scopes. */
    getAccountHealth: (call_?: CallOptions) => call(ProfileHealthResponse, 'GET', '/profiles/health', undefined, call_),
    /** Each network's status (operational, degraded, down), as the hosted page shows it. */
    getNetworkStatus: (call_?: CallOptions) => call(NetworkStatusResponse, 'GET', '/networks/status', undefined, call_),
    createProfile: (title: string, call_?: CallOptions) => call(CreateProfileResponse, 'POST', '/profiles', { title }, call_),
    listProfiles: (call_?: CallOptions) => call(ListProfilesResponse, 'GET', '/profiles', undefined, call_),
    /** Deletes the user profile selected by `profileKey`, its linked accounts, and revokes its sessions. */
    deleteProfile: (profileKey: string, call_?: Omit<CallOptions, 'profileKey'>) =>
      call(DeleteProfileResponse, 'DELETE', '/profiles', undefined, { ...call_, profileKey }),
    /** Lifts the suspension of the profile `refId` (the Primary Profile's call: sent without a Profile-Key). */
    liftSuspension: (refId: string, call_?: Omit<CallOptions, 'profileKey'>) =>
      call(LiftSuspensionResponse, 'PATCH', '/profiles', { refId, suspended: false }, call_),
    /** Registers (or replaces) the profile's webhook for `action` (spec 4.5); `url` must be https. */
    registerWebhook: (webhook: { action: WebhookAction; url: string; secret?: string }, call_?: CallOptions) =>
      call(RegisterWebhookResponse, 'POST', '/hook/webhook', webhook, call_),
    listWebhooks: (call_?: CallOptions) => call(ListWebhooksResponse, 'GET', '/hook/webhook', undefined, call_),
    unregisterWebhook: (action: WebhookAction, call_?: CallOptions) =>
      call(UnregisterWebhookResponse, 'DELETE', '/hook/webhook', { action }, call_),
    /** The delivery log, newest first: each delivery's status, attempts, response codes and body (one action or all). */
    listWebhookDeliveries: (filter: { action?: WebhookAction; limit?: number } = {}, call_?: CallOptions) => {
      const query = new URLSearchParams();
      if (filter.action) query.set('action', filter.action);
      if (filter.limit !== undefined) query.set('limit', String(filter.limit));
      const search = query.size > 0 ? `?${query}` : '';
      return call(WebhookDeliveriesResponse, 'GET', `/hook/webhook/deliveries${search}`, undefined, call_);
    },
    /** Sends one delivery again now: the same event id (`webhook-id`) and body, signed with a fresh timestamp. */
    redeliverWebhook: (deliveryId: string, call_?: CallOptions) =>
      call(RedeliverWebhookResponse, 'POST', `/hook/webhook/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, undefined, call_),
    /** Sandbox only: the profile's webhook inbox address on the service, to register with `registerWebhook`. */
    sandboxWebhookInboxUrl: (call_?: CallOptions) => call(SandboxWebhookInboxUrlResponse, 'POST', '/sandbox/webhook-inbox', undefined, call_),
    /** Sandbox only: what the inbox received, newest first, each with its headers, body and signature check. */
    readSandboxWebhookInbox: (call_?: CallOptions) => call(SandboxWebhookInboxResponse, 'GET', '/sandbox/webhook-inbox', undefined, call_),
    ...publishingMethods(call),
    ...analyticsMethods(call),
  };
}
