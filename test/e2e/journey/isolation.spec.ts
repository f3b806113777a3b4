/**
 * Two user profiles link the same network on the hosted page, each as its own person would, and each publishes:
 * one profile's sandbox feed shows its own post and never the other profile's (each consent makes its own sandbox
 * user; issue 24). Networks from journey-table.ts: a page network and one that today files posts under a stand-in
 * sandbox account.
 */
import type { Page } from '@playwright/test';
import { expect, test } from '../support/fixtures.js';
import type { Stack } from '../support/stack.js';
import { JOURNEYS } from './journey-table.js';
import { integratorClient, linkOnHostedPage, newProfile, settledPost } from './journey-steps.js';

/**
 * The profile's sandbox feed as a person sees it in the browser, at the address the API hands out for that profile
 * (`GET /api/sandbox/feed-url`: it holds a key); its public reference id alone opens nothing.
 */
async function feedText(page: Page, stack: Stack, profile: { profileKey: string; refId: string }): Promise<string> {
  const byRefId = await page.goto(`${stack.serviceUrl}/sandbox/feed?profile=${encodeURIComponent(profile.refId)}`);
  expect(byRefId!.status()).toBe(404);
  const { status, json } = await stack.api('GET', '/sandbox/feed-url', undefined, { 'Profile-Key': profile.profileKey });
  expect(status).toBe(200);
  const response = await page.goto(json.url);
  expect(response!.status()).toBe(200);
  return page.locator('body').innerText();
}

for (const network of ['facebook', 'youtube'] as const) {
  const journey = JOURNEYS.find((row) => row.network === network)!;

  test(`${network}: two profiles link it on the hosted page; each feed shows only its own post`, async ({ context, page, stack, integrator }) => {
    const client = integratorClient(stack.serviceUrl);
    const profiles = [await newProfile(client, `Ada ${network}`), await newProfile(client, `Grace ${network}`)];
    const texts: string[] = [];
    for (const [index, { profileKey }] of profiles.entries()) {
      await linkOnHostedPage(journey, { context, page, integrator, client, profileKey });
      const text = `Only profile ${index} may see this on ${network} ${Date.now()}`;
      const created = await client.createPost(
        {
          post: text,
          platforms: [network],
          ...(journey.media.length > 0 && { mediaUrls: journey.media.map((file) => `${stack.serviceUrl}/sandbox/media/${file}`) }),
          ...journey.extra,
        },
        { profileKey },
      );
      expect((await settledPost(client, created.id, profileKey)).status).toBe('success');
      texts.push(text);
    }
    const [ada, grace] = profiles;
    const adaFeed = await feedText(page, stack, ada!);
    const graceFeed = await feedText(page, stack, grace!);
    expect(adaFeed).toContain(texts[0]);
    expect(graceFeed).toContain(texts[1]);
    expect(adaFeed, "Ada's feed shows Grace's post").not.toContain(texts[1]);
    expect(graceFeed, "Grace's feed shows Ada's post").not.toContain(texts[0]);
  });
}
