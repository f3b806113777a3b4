/**
 * Drives an OAuth connection through the real service and the sandbox OAuth server with plain HTTP, step by step,
 * as a browser would: hosted-page API → /connect/start → sandbox consent (which answers with a code) →
 * /connect/callback. Each step is exposed so tests can replay, reorder or tamper with one of them.
 */
import assert from 'node:assert/strict';
import type { Network } from '@social-link-kit/protocol';
import type { TestService } from './test-service.js';

/** Only the address is needed: the driver also runs against a service in a child process. */
type Service = Pick<TestService, 'url'>;

export type ConsentChoice = 'allow' | 'deny' | 'network_error' | 'token_error';

export interface StartedAttempt {
  /** The binding cookie pair (`name=value`) the start step set in this "browser". */
  cookie: string;
  /** The sandbox consent page URL the start step redirected to (our authorization endpoint). */
  consentUrl: URL;
  state: string;
}

/** `POST /api/link/connect/:platform` with the link token → the one-time start URL. */
export async function requestStartUrl(svc: Service, token: string, platform: Network): Promise<string> {
  const response = await fetch(`${svc.url}/api/link/connect/${platform}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  const json = (await response.json()) as Record<string, unknown>;
  assert.equal(response.status, 200, JSON.stringify(json));
  assert.equal(typeof json.startUrl, 'string');
  return json.startUrl as string;
}

/** Opens the start URL: expects the binding cookie and a redirect to the network's authorization endpoint. */
export async function openStartUrl(startUrl: string): Promise<StartedAttempt> {
  const response = await fetch(startUrl, { redirect: 'manual' });
  assert.equal(response.status, 302, await response.text());
  const setCookie = response.headers.get('set-cookie') ?? '';
  assert.match(setCookie, /HttpOnly/i);
  assert.match(setCookie, /SameSite=Lax/i);
  const cookie = setCookie.split(';')[0]!;
  const consentUrl = new URL(response.headers.get('location')!);
  const state = consentUrl.searchParams.get('state');
  assert.ok(state, 'authorization request without state');
  return { cookie, consentUrl, state };
}

/** Submits the sandbox consent form; returns the URL the browser goes to next. */
export async function consent(svc: Service, attempt: StartedAttempt, choice: ConsentChoice): Promise<URL> {
  const form = new URLSearchParams();
  for (const [name, value] of attempt.consentUrl.searchParams) form.set(name, value);
  form.set('choice', choice);
  const response = await fetch(`${svc.url}/sandbox/authorize`, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(response.status, 302, await response.text());
  return new URL(response.headers.get('location')!);
}

export interface CallbackResult {
  status: number;
  headers: Headers;
  html: string;
  /** The result page's data attributes: outcome, platform, code, message, reason. */
  data: Record<string, string>;
}

export async function callback(callbackUrl: URL | string, cookie: string | null): Promise<CallbackResult> {
  const response = await fetch(callbackUrl, { redirect: 'manual', headers: cookie ? { Cookie: cookie } : {} });
  const html = await response.text();
  const body = /<body([^>]*)>/.exec(html)?.[1] ?? '';
  const data: Record<string, string> = {};
  for (const match of body.matchAll(/data-([a-z-]+)="([^"]*)"/g)) data[match[1]!] = decodeEntities(match[2]!);
  return { status: response.status, headers: response.headers, html, data };
}

/** The whole flow up to (not including) the callback. */
export async function runUntilCallback(svc: Service, token: string, platform: Network, choice: ConsentChoice = 'allow') {
  const attempt = await openStartUrl(await requestStartUrl(svc, token, platform));
  const callbackUrl = await consent(svc, attempt, choice);
  return { attempt, callbackUrl };
}

export async function connectAccount(svc: Service, token: string, platform: Network, choice: ConsentChoice = 'allow') {
  const { attempt, callbackUrl } = await runUntilCallback(svc, token, platform, choice);
  return callback(callbackUrl, attempt.cookie);
}

export async function sessionView(svc: Service, token: string) {
  const response = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}
