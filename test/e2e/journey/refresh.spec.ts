/**
 * A relink-free refresh, for every network whose access tokens expire (journey-table.ts): a person links the
 * account on the hosted page, the integrator publishes; the service clock moves past the access token's life
 * (two hours); the next post renews the token with the refresh grant and publishes, without the person linking
 * again. The service runs in-process (test/e2e/hosted/harness.ts) because only there is its clock movable; the
 * browser, the hosted page, HTTP and SQLite are the real ones.
 */
import { expect, test } from '../support/fixtures.js';
import { tokenAad } from '../../../server/src/core/crypto/token-cipher.js';
import { JOURNEYS } from './journey-table.js';
import { integratorClient, linkOnHostedPage, newProfile, settledPost } from './journey-steps.js';

const TWO_HOURS_MS = 2 * 60 * 60 * 1000;

for (const journey of JOURNEYS.filter((row) => row.expiringToken)) {
  test(`${journey.network}: the access token expires on the service clock; the next post refreshes it and publishes`, async ({ context, page, harness }) => {
    const { svc, integrator } = harness;
    const client = integratorClient(svc.url, svc.apiKey);
    const { profileKey, refId } = await newProfile(client, `Refresh ${journey.network}`);
    await linkOnHostedPage(journey, { context, page, integrator, client, profileKey });

    /**
     * When the service obtained the tokens it holds for the account, on its clock (decrypted: they are sealed at
     * rest). The tokens themselves can repeat: a JWT issued again within the same second is the same string.
     */
    const obtainedAt = async (): Promise<number> => {
      const [row] = (
        await svc.sql('SELECT s.profile_id, s.network_user_id, s.tokens_encrypted FROM social_accounts s JOIN profiles p ON p.id = s.profile_id WHERE p.ref_id = ? AND s.platform = ?', [refId, journey.network])
      ).rows;
      const tokens = JSON.parse(svc.tokenCipher.decrypt(row!.tokens_encrypted, tokenAad(row!.profile_id, journey.network, row!.network_user_id))) as Record<string, unknown>;
      return Number(tokens.obtainedAt);
    };
    const publish = async (label: string) => {
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
    };

    await publish('Before the token expires');
    const before = await obtainedAt();
    svc.clock.advance(TWO_HOURS_MS);
    await publish('After the token expired');
    expect(await obtainedAt(), 'the tokens were not renewed').toBeGreaterThanOrEqual(before + TWO_HOURS_MS);
    expect((await client.getUser({ profileKey })).activeSocialAccounts).toContain(journey.network);
  });
}
