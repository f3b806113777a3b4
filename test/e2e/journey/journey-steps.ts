/**
 * The steps of a journey, as a person and an integrator take them: the integrator's backend creates a link
 * session with the documented client (`createLinkClient`), the person opens the hosted page in one of the four
 * modes and connects on the screens they see (the sandbox consent page, bluesky's handle and app password,
 * telegram's bot code), then the backend publishes and reads through the same client. Nothing here links an
 * account any other way (journey-guard.spec.ts checks the suite's files for the shortcut).
 */
import { expect, type BrowserContext, type FrameLocator, type Page } from '@playwright/test';
import { createLinkClient, type LinkClient } from '../../../src/client/index.js';
import type { PageServer } from '../hosted/fixtures/page-server.js';
import { clickAndWaitForClose } from '../support/click-and-close.js';
import { API_KEY } from '../support/stack.js';
import type { Journey } from './journey-table.js';

/** The sandbox X developer app (public: it only works on the sandbox); twitter-bound calls must carry an app (spec 5.6). */
export const SANDBOX_TWITTER_APP = { apiKey: 'sandbox-twitter-api-key', apiSecret: 'sandbox-twitter-api-secret' } as const;

/** A native app's return address: a reverse-DNS custom scheme (RFC 8252 §7.1), as the demo's simulated app uses. */
export const NATIVE_RETURN = 'com.socialkit.journey:/linked';

/** The integrator backend's client on a service, with the sandbox X app for twitter-bound calls. */
export function integratorClient(serviceUrl: string, apiKey = API_KEY): LinkClient {
  return createLinkClient({ baseUrl: `${serviceUrl}/api`, apiKey, twitterApp: SANDBOX_TWITTER_APP });
}

/** A fresh user profile for one journey, so journeys never share accounts: its key and refId. */
export async function newProfile(client: LinkClient, title: string): Promise<{ profileKey: string; refId: string }> {
  const created = await client.createProfile(title);
  const user = await client.getUser({ profileKey: created.profileKey });
  return { profileKey: created.profileKey, refId: user.refId };
}

interface LinkContext {
  context: BrowserContext;
  page: Page;
  integrator: PageServer;
  client: LinkClient;
  profileKey: string;
}

/**
 * Opens a link session for `journey.network` in the journey's mode and connects it as a person would; returns once
 * the hosted page says the network is connected (and, for direct and native, once the person is back in the app).
 */
export async function linkOnHostedPage(journey: Journey, { context, page, integrator, client, profileKey }: LinkContext): Promise<void> {
  const native = journey.mode === 'native';
  const session = await client.createLinkSession(
    {
      origin: native ? NATIVE_RETURN : integrator.origin,
      allowedSocial: [journey.network],
      ...(journey.mode === 'direct' && { redirect: `${integrator.origin}/?returned=1` }),
      ...(native && { redirect: NATIVE_RETURN }),
    },
    { profileKey },
  );
  const { scope, opener } = await openHostedPage(journey, { context, page, integrator }, session.url);
  const appReturn = native ? opener.waitForRequest((request) => request.url().startsWith(NATIVE_RETURN), { timeout: 15_000 }) : null;
  await connect(journey, scope, opener, profileKey);
  await expect(scope.getByText(`${journey.label} is connected.`)).toBeVisible({ timeout: 10_000 });
  if (journey.mode === 'direct') {
    await page.getByRole('button', { name: 'Return to the app' }).click();
    await expect(page).toHaveURL(`${integrator.origin}/?returned=1`);
  }
  if (appReturn) {
    // The test plays the operating system: the hosted page hands the result to the app's custom scheme.
    const address = new URL((await appReturn).url());
    expect(address.searchParams.get('event')).toBe('connect:success');
    expect(address.searchParams.get('platform')).toBe(journey.network);
  }
  // The backend's source of truth: the session read, then the profile's linked accounts.
  expect((await client.getLinkSession(session.sessionId, { profileKey })).completedNetworks).toEqual([journey.network]);
  expect((await client.getUser({ profileKey })).activeSocialAccounts).toContain(journey.network);
}

/** Where the hosted page runs in this mode (`scope`), and the window its sign-in popups open from (`opener`). */
async function openHostedPage(journey: Journey, { context, page, integrator }: Omit<LinkContext, 'client' | 'profileKey'>, url: string) {
  let scope: Page | FrameLocator;
  let opener: Page;
  switch (journey.mode) {
    case 'frame':
      // The integrator page frames the link with the widget's iframe sandbox (test/e2e/hosted/fixtures/integrator.js).
      await page.goto(`${integrator.origin}/?mode=frame&link=${encodeURIComponent(url)}`);
      scope = page.frameLocator('iframe');
      opener = page;
      break;
    case 'popup': {
      await page.goto(`${integrator.origin}/?mode=popup&link=${encodeURIComponent(url)}`);
      const popup = page.waitForEvent('popup');
      await page.getByRole('button', { name: 'Open link in a popup' }).click();
      scope = opener = await popup;
      break;
    }
    case 'direct':
      await page.goto(url);
      scope = opener = page;
      break;
    case 'native':
      // The app opens the link in the system browser: a tab of its own, no opener, no messages.
      scope = opener = await context.newPage();
      await opener.goto(url);
      break;
  }
  await expect(scope.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  return { scope, opener };
}

/** The screens a person sees for this network's connect method. */
async function connect(journey: Journey, scope: Page | FrameLocator, opener: Page, profileKey: string): Promise<void> {
  const button = scope.getByRole('button', { name: `Connect ${journey.label}`, exact: true });
  if (journey.connect === 'consent') {
    const consentWindow = opener.waitForEvent('popup');
    await button.click();
    const consent = await consentWindow;
    await expect(consent.getByText(/Sandbox network: no real .* account is connected/)).toBeVisible();
    // The sandbox consent screen may ask which account to sign in as; each profile picks its own.
    const handle = consent.getByLabel(/handle/i);
    if (await handle.count()) await handle.fill(handleFor(profileKey));
    await clickAndWaitForClose(consent, consent.getByRole('button', { name: 'Allow', exact: true }));
  } else if (journey.connect === 'app-password') {
    await button.click();
    await scope.getByLabel('Handle').fill(`${handleFor(profileKey)}.bsky.social`);
    // The person reads the sandbox login the form shows (nothing in the docs needed).
    const login = await scope.getByText(/^Sandbox: any handle works with the app password /).textContent();
    await scope.getByLabel('App password').fill(/app password (\S+)\.$/.exec(login ?? '')?.[1] ?? '');
    await scope.getByRole('button', { name: 'Connect', exact: true }).click();
  } else {
    await button.click();
    await expect(scope.getByLabel('Code')).toHaveText(/^\s*[A-Z2-9]{8}\s*$/);
    // The sandbox bot stands in for the person sending the code to the bot in Telegram.
    await scope.getByRole('button', { name: 'Simulate the bot (sandbox)' }).click();
  }
}

/** A handle of letters and digits only (valid on every network), distinct per profile. */
function handleFor(profileKey: string): string {
  return `journey${profileKey.replace(/[^a-z0-9]/gi, '').slice(-10).toLowerCase()}`;
}

type PostRecord = Awaited<ReturnType<LinkClient['getPost']>>;

/**
 * Reads the post until the network has answered (tiktok stays `pending` while it processes the video). `tick` runs
 * between reads: an in-process service's test clock must move for its status polls to come due.
 */
export async function settledPost(client: LinkClient, id: string, profileKey: string, tick: () => void = () => {}): Promise<PostRecord> {
  let post = await client.getPost(id, { profileKey });
  const deadline = Date.now() + 20_000;
  while (['processing', 'pending', 'scheduled'].includes(post.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    tick();
    post = await client.getPost(id, { profileKey });
  }
  return post;
}
