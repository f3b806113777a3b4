/**
 * Shared steps of the account-health tests: a service whose sweep runs every service-clock minute, a webhook receiver
 * on loopback, linking through the sandbox consent screen as a browser does (keeping the sandbox login cookie, so the
 * same network user can link again), and moving the service clock one sweep at a time.
 */
import assert from 'node:assert/strict';
import type { Network } from '@social-link-kit/protocol';
import { callback, openStartUrl, requestStartUrl } from '../support/oauth-driver.js';
import type { TestService } from '../support/test-service.js';
import { eventually, type WebhookReceiver } from '../support/webhook-receiver.js';
import { startWithReceiver } from '../webhooks/fixtures.js';
import { startPublishingService } from '../publishing/publishing-fixtures.js';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Waits until the sweep job ran at the current service clock (it reschedules itself past it). */
export async function sweepDone(svc: TestService): Promise<void> {
  await eventually(
    () => svc.sql("SELECT run_at, lease_until FROM jobs WHERE id = 'job_account_health_sweep'"),
    (result) => result.rows.length === 1 && Number(result.rows[0]!.run_at) > svc.clock() && result.rows[0]!.lease_until === null,
    20_000,
  );
}

/**
 * Waits until no job due at the current service clock is waiting or running (webhook deliveries aside: they run on
 * the wall clock). Moving the clock while a renewal is in flight would lapse its lease (30 s of the service clock)
 * at once, which no real clock does.
 */
export async function jobsSettled(svc: TestService): Promise<void> {
  await sweepDone(svc);
  await eventually(
    () => svc.sql("SELECT COUNT(*) AS n FROM jobs WHERE kind <> 'webhook' AND done_at IS NULL AND failed_at IS NULL AND (lease_until IS NOT NULL OR run_at <= ?)", [svc.clock()]),
    (result) => Number(result.rows[0]!.n) === 0,
    20_000,
  );
}

/**
 * Moves the clock by `ms` in steps of at most `stepMs` (an hour; a day for a year's span, as the sweep renews each
 * account daily), letting the sweep and every due job run after each.
 */
export async function advance(svc: TestService, ms: number, onStep?: () => Promise<void>, stepMs = HOUR): Promise<void> {
  for (let left = ms; left > 0; left -= stepMs) {
    svc.clock.advance(Math.min(stepMs, left));
    await jobsSettled(svc);
    await onStep?.();
  }
}

/** A publishing service and a webhook receiver for a health suite, with the sweep's first run settled. */
export async function startHealthService(): Promise<{ svc: TestService; receiver: WebhookReceiver }> {
  const started = await startWithReceiver(startPublishingService);
  await jobsSettled(started.svc);
  return started;
}

export async function createProfile(svc: TestService, title: string): Promise<string> {
  const created = await svc.api('POST', '/profiles', { body: { title } });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  return created.json.profileKey as string;
}

export async function registerWebhooks(svc: TestService, receiver: WebhookReceiver, profileKey?: string): Promise<void> {
  for (const action of ['social', 'scheduled']) {
    const registered = await svc.api('POST', '/hook/webhook', { body: { action, url: receiver.url }, ...(profileKey && { headers: { 'Profile-Key': profileKey } }) });
    assert.equal(registered.status, 200, JSON.stringify(registered.json));
  }
}

/**
 * Links `platform` through a link session, the hosted-page API and the sandbox consent screen. With `login` (the
 * sandbox login cookie of an earlier link) the person continues as that same network user; returns the login cookie.
 */
export async function linkThroughConsent(svc: TestService, profileKey: string, platform: Network, options: { login?: string; sessionBody?: Record<string, unknown> } = {}) {
  const session = await svc.api('POST', '/profiles/link-sessions', { body: options.sessionBody ?? {}, headers: { 'Profile-Key': profileKey } });
  assert.equal(session.status, 200, JSON.stringify(session.json));
  const token = new URL(session.json.url as string).searchParams.get('session')!;
  const attempt = await openStartUrl(await requestStartUrl(svc, token, platform));
  const form = new URLSearchParams();
  for (const [name, value] of attempt.consentUrl.searchParams) form.set(name, value);
  form.set('choice', options.login ? 'remembered' : 'allow');
  const answer = await fetch(`${svc.url}/sandbox/authorize`, { method: 'POST', body: form, redirect: 'manual', headers: options.login ? { Cookie: options.login } : {} });
  assert.equal(answer.status, 302, await answer.text());
  const login = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
  const result = await callback(new URL(answer.headers.get('location')!), attempt.cookie);
  assert.equal(result.data.outcome, 'success', JSON.stringify(result.data));
  return { login: options.login ?? login, token };
}

export async function profileHealth(svc: TestService, profileKey?: string) {
  const got = await svc.api('GET', '/profiles/health', profileKey ? { headers: { 'Profile-Key': profileKey } } : {});
  assert.equal(got.status, 200, JSON.stringify(got.json));
  return got.json.accounts as Record<string, any>[];
}

/** Account and pre-flight events the receiver got for a profile (by refId), parsed. */
export function eventsOf(receiver: WebhookReceiver, refId: string): Record<string, any>[] {
  return receiver.received.map((hook) => JSON.parse(hook.body) as Record<string, any>).filter((body) => body.refId === refId && typeof body.event === 'string' && /^(account|preflight)\./.test(body.event));
}

export async function setRefreshSwitch(svc: TestService, platform: Network, accountId: string, body: Record<string, unknown>) {
  const answer = await fetch(`${svc.url}/sandbox/net/${platform}/accounts/${accountId}/refresh-switch`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${svc.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await answer.json()) as Record<string, any>;
  assert.equal(answer.status, 200, JSON.stringify(json));
  return json;
}
