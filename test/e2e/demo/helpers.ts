/**
 * Shared steps for the demo e2e specs: the service (http://127.0.0.1:<port>) and the demo integrator site
 * (http://localhost:<port>) run as child processes, exactly as `npm start` runs them, with every network on
 * its sandbox. The specs drive the demo page as a user would and check what it logs in `#event-log`.
 */
import { expect, type FrameLocator, type Page } from '@playwright/test';
import type { Stack } from '../support/stack.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';

export type Where = Page | FrameLocator;

/** Items of the demo's event log, oldest first, as `{type, detail}` (the page prepends new items). */
export async function events(page: Page): Promise<Array<{ type: string; detail: any }>> {
  const texts = await page.locator('#event-log li').allTextContents();
  return texts.reverse().map((text) => {
    // "<time> <type> <json>"; the time is locale-formatted and may contain spaces ("1:02:03 PM").
    const match = /^(.*?) ([a-z-]+) (\{.*\})$/.exec(text);
    if (!match) throw new Error(`Unexpected event log line: ${text}`);
    return { type: match[2]!, detail: JSON.parse(match[3]!) };
  });
}

/** The event types logged so far, oldest first. */
export const eventTypes = async (page: Page) => (await events(page)).map((e) => e.type);

export async function openDemo(page: Page, stack: Stack) {
  await page.goto(stack.demoUrl!);
  await expect(page.getByRole('heading', { name: /Acme Scheduler/ })).toBeVisible();
  await expect(page.locator('#accounts')).not.toContainText('Loading');
  // The element is defined by the script-tag build once it has loaded.
  await page.waitForFunction(() => customElements.get('social-link-button') !== undefined);
}

/** A `datetime-local` value in the browser's own time zone, `minutes` from now (minute precision, as the input). */
export function localDateTime(page: Page, minutes: number): Promise<string> {
  return page.evaluate((offset) => {
    const at = new Date(Date.now() + offset * 60_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  }, minutes);
}

/**
 * The simulated native app: clicks its connect button and waits for the tab it opens until the page script has
 * run (the heading is in the page's HTML; the session id replaces the token in the address once the script ran).
 */
export async function openNativeTab(page: Page): Promise<{ tab: Page; sessionId: string }> {
  const tabPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect from the app' }).click();
  const tab = await tabPromise;
  await expect(tab.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await expect(tab).toHaveURL(/[?&]sid=ls_/);
  return { tab, sessionId: new URL(tab.url()).searchParams.get('sid')! };
}

export const hostedFrame = (page: Page) => page.frameLocator('social-link-button iframe, iframe').first();

/** Frame mode: clicks the demo's `<social-link-button>` and waits for the hosted page inside the overlay. */
export async function openFrame(page: Page) {
  await page.getByRole('button', { name: 'Connect in a frame' }).click();
  const frame = hostedFrame(page);
  await expect(frame.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await expect.poll(() => eventTypes(page)).toContain('ready');
  return frame;
}

/** Popup mode: clicks the demo's own button and returns the hosted page's window. */
export async function openPopup(page: Page) {
  const hostedPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect in a popup' }).click();
  const hosted = await hostedPromise;
  await expect(hosted.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  await expect.poll(() => eventTypes(page)).toContain('ready');
  return hosted;
}

/** Direct mode: the demo navigates its own tab to the hosted page. */
export async function openDirect(page: Page) {
  await page.getByRole('button', { name: 'Go to the linking page' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  // The heading is in the page's HTML; the session id replaces the token in the address once its script has run.
  await expect(page).toHaveURL(/[?&]sid=ls_/);
  const sessionId = new URL(page.url()).searchParams.get('sid');
  expect(sessionId).toMatch(/^ls_/);
  return sessionId!;
}

/** The composer's "More options" (a network's own text, first comment, extra JSON), opened so they can be filled. */
export async function openMoreOptions(page: Page) {
  await page.locator('#composer details').evaluate((details: HTMLDetailsElement) => (details.open = true));
}

/** A post of the post list, found by the start of its text. */
export const postLine = (page: Page, text: string) => page.locator('#posts > li', { hasText: text });

/** The post's status as the list says it (`published`, `partly published`, `scheduled`…). */
export const postStatus = (page: Page, text: string) => postLine(page, text).locator('.badge');

/** Each network's result as the list says it, `facebook: published`, in the post's order of networks. */
export const postNetworks = (page: Page, text: string) => postLine(page, text).locator('.chips li');

/** Confirms the destructive action the demo asks about in its dialog (unlink, revoke, delete). */
export async function confirmDialog(page: Page, button: string) {
  const dialog = page.locator('#confirm-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
}

/** The session id the demo shows for the current session ("ls_…: created for … mode"). */
export async function currentSessionId(page: Page): Promise<string> {
  await expect(page.locator('#session-status')).toContainText('ls_');
  const text = (await page.locator('#session-status').textContent()) ?? '';
  return /(ls_[0-9a-zA-Z]+)/.exec(text)![1]!;
}

/**
 * Clicks "Connect <network>" in `where` (a page or the overlay's frame), waits for the sandbox consent window
 * (opened from `opener`), optionally screenshots it, and answers with `choice` (Allow, Deny, or one of the
 * simulated failures). Returns once the consent window has closed itself.
 */
export async function consent(where: Where, opener: Page, network: string, choice: string, screenshot?: string) {
  const popupPromise = opener.waitForEvent('popup');
  await where.getByRole('button', { name: `Connect ${network}` }).click();
  const popup = await popupPromise;
  await expect(popup.getByText(/Sandbox network: no real .* account is connected/)).toBeVisible();
  if (screenshot) await popup.screenshot({ path: screenshot });
  await clickAndWaitForClose(popup, popup.getByRole('button', { name: choice }));
}

/**
 * A read with the demo's profile key: the demo creates its sessions for its own user profile, so the service
 * read needs that profile's key (kept in the demo's data dir).
 */
export async function readDemoSession(stack: Stack, sessionId: string) {
  const response = await fetch(`${stack.demoUrl}/api/session/${encodeURIComponent(sessionId)}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { state: string; completedNetworks: string[] };
}
