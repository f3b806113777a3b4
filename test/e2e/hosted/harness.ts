/**
 * Shared setup for the hosted page e2e specs: the real service (SQLite in a temp dir, test clock, embedded sandbox
 * authorization server) on http://127.0.0.1:<port>, the integrator page on http://localhost:<port>, and a third,
 * unrelated origin on http://localhost:<another port>. Helpers read what the integrator page received.
 */
import { expect, type BrowserContext, type FrameLocator, type Page } from '@playwright/test';
import type { CreateLinkSessionRequest } from '@social-link-kit/protocol/resources.js';
import { startTestService, type TestService } from '../../../server/test/support/test-service.js';
import { startPageServer, type PageServer } from './fixtures/page-server.js';

/**
 * The in-process service as the hosted-page specs use it: they read linked accounts only, so `storage` is the
 * linking store (the service's storage is split per feature; see server/src/storage/storage.ts).
 */
export type HostedTestService = Omit<TestService, 'storage'> & { storage: TestService['storage']['linking'] };

export interface Harness {
  svc: HostedTestService;
  integrator: PageServer;
  thirdOrigin: PageServer;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const svc = await startTestService();
  const integrator = await startPageServer('localhost');
  const thirdOrigin = await startPageServer('localhost');
  return {
    svc: { ...svc, storage: svc.storage.linking },
    integrator,
    thirdOrigin,
    async close() {
      await integrator.close();
      await thirdOrigin.close();
      await svc.close();
    },
  };
}

export interface ReceivedMessage {
  origin: string;
  data: Record<string, unknown>;
  fromLink: boolean;
}

/** Every link token a spec created, so `assertNoTokenLeaked` can look for them afterwards. */
const issuedTokens = new Set<string>();

export async function createLink(h: Harness, request: CreateLinkSessionRequest = {}) {
  const link = await h.svc.client.createLinkSession({ origin: h.integrator.origin, ...request });
  issuedTokens.add(new URL(link.url).searchParams.get('session')!);
  return link;
}

/** Checklist A.5: after the flows, no issued token appears in the service log (access and app lines). */
export function assertNoTokenLeaked(h: Harness): void {
  const log = h.svc.logLines.join('\n');
  expect(log.length).toBeGreaterThan(0);
  for (const token of issuedTokens) expect(log.includes(token), 'a link token reached the service log').toBe(false);
}

/** Every message the integrator-style page on `page` received so far. */
export async function received(page: Page): Promise<ReceivedMessage[]> {
  return page.evaluate(() => (window as unknown as { received: ReceivedMessage[] }).received);
}

/** Only our protocol's messages, reduced to the fields tests compare; `connect:resize` (layout) left out. */
export async function linkEvents(page: Page): Promise<Record<string, unknown>[]> {
  return (await received(page)).filter((m) => m.data?.source === 'social-link-kit' && m.data.event !== 'connect:resize').map((m) => m.data);
}

export async function openInFrame(page: Page, server: PageServer, linkUrl: string): Promise<FrameLocator> {
  await page.goto(`${server.origin}/?mode=frame&link=${encodeURIComponent(linkUrl)}`);
  return page.frameLocator('iframe');
}

/** Opens the link in a popup from the integrator page, as the widget's popup mode does. */
export async function openInPopup(page: Page, server: PageServer, linkUrl: string): Promise<Page> {
  await page.goto(`${server.origin}/?mode=popup&link=${encodeURIComponent(linkUrl)}`);
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Open link in a popup' }).click()]);
  await popup.waitForLoadState();
  return popup;
}

/** Clicks "Connect <Label>" inside `scope` and returns the network's sign-in window (the sandbox consent page). */
export async function startConnect(context: BrowserContext, scope: Page | FrameLocator, label: string): Promise<Page> {
  const [oauthWindow] = await Promise.all([
    context.waitForEvent('page'),
    scope.getByRole('button', { name: `Connect ${label}`, exact: true }).click(),
  ]);
  await oauthWindow.waitForLoadState();
  await expect(oauthWindow.getByText(/Sandbox network: no real .* account is connected/)).toBeVisible();
  return oauthWindow;
}

/** Picks a button on the sandbox consent page; the window then closes itself after the callback. */
export async function answerConsent(oauthWindow: Page, button: 'Allow' | 'Deny' | 'Simulate a network error' | 'Simulate a refused code exchange') {
  const closed = oauthWindow.waitForEvent('close', { timeout: 10_000 }).catch(() => null);
  await oauthWindow.getByRole('button', { name: button, exact: true }).click();
  return closed;
}

export function networkRow(scope: Page | FrameLocator, platform: string) {
  return scope.locator(`li[data-platform="${platform}"]`);
}
