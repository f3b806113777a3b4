/**
 * A relink-free refresh, for every network whose access tokens expire (journey-table.ts): a person links the
 * account on the hosted page, the integrator publishes; the service clock moves past the access token's life
 * (two hours); the next post renews the token with the refresh grant and publishes, without the person linking
 * again. The service runs in-process (test/e2e/hosted/harness.ts) because only there is its clock movable; the
 * browser, the hosted page, HTTP and SQLite are the real ones.
 * Meta's networks have no refresh token: the code's hour-long token is traded at the link for a long-lived one
 * (facebook: the page's token, which does not expire; instagram and threads: 60 days, renewed with itself).
 */
import { expect, test } from '../support/fixtures.js';
import { openTokens } from '../../../server/src/core/crypto/token-cipher.js';
import type { Network } from '@social-link-kit/protocol';
import type { Harness } from '../hosted/harness.js';
import { JOURNEYS, type Journey } from './journey-table.js';
import { integratorClient, linkOnHostedPage, newProfile, settledPost } from './journey-steps.js';

const TWO_HOURS_MS = 2 * 60 * 60 * 1000;
const SIXTY_DAYS_S = 60 * 86_400;
const META: readonly Network[] = ['facebook', 'instagram', 'threads'];

/** The tokens the service holds for the profile's account, decrypted (they are sealed at rest). */
async function heldTokens(svc: Harness['svc'], refId: string, network: Network): Promise<Record<string, unknown>> {
  const [row] = (
    await svc.sql('SELECT s.profile_id, s.network_user_id, s.tokens_encrypted FROM social_accounts s JOIN profiles p ON p.id = s.profile_id WHERE p.ref_id = ? AND s.platform = ?', [refId, network])
  ).rows;
  return openTokens(svc.tokenCipher, { profileId: row!.profile_id, platform: network, networkUserId: row!.network_user_id }, row!.tokens_encrypted);
}

/** Publishes the journey's post and expects it out. */
async function publishes(svc: Harness['svc'], client: ReturnType<typeof integratorClient>, journey: Journey, profileKey: string, label: string): Promise<void> {
  const created = await client.createPost(
    {
      post: `${label} on ${journey.network} ${Date.now()}`,
      platforms: [journey.network],
      ...(journey.media.length > 0 && { mediaUrls: journey.media.map((file) => `${svc.url}/sandbox/media/${file}`) }),
      ...journey.extra,
    },
    { profileKey },
  );
  const post = await settledPost(client, created.id, profileKey, () => svc.clock.advance(1000));
  expect(post.errors, JSON.stringify(post.errors)).toEqual([]);
  expect(post.status).toBe('success');
}

for (const journey of JOURNEYS.filter((row) => row.expiringToken)) {
  test(`${journey.network}: the access token expires on the service clock; the next post refreshes it and publishes`, async ({ context, page, harness }) => {
    const { svc, integrator } = harness;
    const client = integratorClient(svc.url, svc.apiKey);
    const { profileKey, refId } = await newProfile(client, `Refresh ${journey.network}`);
    await linkOnHostedPage(journey, { context, page, integrator, client, profileKey });

    // When the service obtained its tokens, on its clock (the tokens themselves can repeat: a JWT issued again
    // within the same second is the same string).
    const obtainedAt = async () => Number((await heldTokens(svc, refId, journey.network)).obtainedAt);
    await publishes(svc, client, journey, profileKey, 'Before the token expires');
    const before = await obtainedAt();
    svc.clock.advance(TWO_HOURS_MS);
    await publishes(svc, client, journey, profileKey, 'After the token expired');
    expect(await obtainedAt(), 'the tokens were not renewed').toBeGreaterThanOrEqual(before + TWO_HOURS_MS);
    expect((await client.getUser({ profileKey })).activeSocialAccounts).toContain(journey.network);
  });
}

for (const journey of JOURNEYS.filter((row) => META.includes(row.network))) {
  test(`${journey.network}: the hour-long login token is traded for a long-lived one; posts publish hours and weeks later`, async ({ context, page, harness }) => {
    const { svc, integrator } = harness;
    const client = integratorClient(svc.url, svc.apiKey);
    const { profileKey, refId } = await newProfile(client, `Long-lived ${journey.network}`);
    await linkOnHostedPage(journey, { context, page, integrator, client, profileKey });
    const linked = await heldTokens(svc, refId, journey.network);
    // facebook keeps the page's token (no end); instagram and threads a 60-day one.
    expect(linked.expiresIn ?? null).toBe(journey.network === 'facebook' ? null : SIXTY_DAYS_S);

    svc.clock.advance(TWO_HOURS_MS);
    await publishes(svc, client, journey, profileKey, 'Two hours after linking');
    if (journey.network === 'facebook') return;
    // A minute before the 60 days end, the next post renews the token with itself (ig_refresh_token, th_refresh_token).
    svc.clock.advance(Number(linked.obtainedAt) + SIXTY_DAYS_S * 1000 - 60_000 - svc.clock());
    await publishes(svc, client, journey, profileKey, 'Sixty days after linking');
    const renewed = await heldTokens(svc, refId, journey.network);
    expect(renewed.accessToken).not.toBe(linked.accessToken);
    expect(Number(renewed.obtainedAt)).toBeGreaterThan(Number(linked.obtainedAt) + 59 * 86_400_000);
    expect((await client.getUser({ profileKey })).activeSocialAccounts).toContain(journey.network);
  });
}
