/**
 * The journey, network by network (issue 24): for each of the 13 networks, generated from journey-table.ts, a
 * person links an account on the hosted page in real Chromium (frame, popup, direct or native), then the
 * integrator, through the documented client, publishes with the media that network needs, reads the post back
 * (and in the history), reads its analytics and comments where the network has them, deletes it where the network
 * allows, and unlinks. One service stack (the real service as a child process, `npm start`'s way) for the file;
 * each journey has its own user profile.
 */
import { expect, test } from '../support/fixtures.js';
import { API_KEY } from '../support/stack.js';
import { JOURNEYS } from './journey-table.js';
import { integratorClient, linkOnHostedPage, newProfile, settledPost } from './journey-steps.js';

for (const journey of JOURNEYS) {
  test(`${journey.network} (${journey.mode}): link on the hosted page, publish, read back${journey.analytics ? ', analytics' : ''}${journey.comments ? ', comments' : ''}${journey.delete ? ', delete' : ''}${journey.unlink ? ', unlink' : ''}`, async ({ context, page, stack, integrator }) => {
    const client = integratorClient(stack.serviceUrl);
    const { profileKey } = await newProfile(client, `Journey ${journey.network}`);

    await test.step('link on the hosted page', () => linkOnHostedPage(journey, { context, page, integrator, client, profileKey }));

    const text = `Journey on ${journey.network} ${Date.now()}`;
    const created = await test.step('publish', () =>
      client.createPost(
        {
          post: text,
          platforms: [journey.network],
          ...(journey.media.length > 0 && { mediaUrls: journey.media.map((file) => `${stack.serviceUrl}/sandbox/media/${file}`) }),
          ...journey.extra,
        },
        { profileKey },
      ),
    );
    const post = await test.step('read the post back', async () => {
      const read = await settledPost(client, created.id, profileKey);
      expect(read.errors, JSON.stringify(read.errors)).toEqual([]);
      expect(read.status).toBe('success');
      expect(read.postIds).toEqual([expect.objectContaining({ platform: journey.network, status: 'success', id: expect.any(String) })]);
      const { history } = await client.getHistory({ lastDays: 1, platforms: [journey.network] }, { profileKey });
      expect(history.map((entry) => entry.id)).toContain(created.id);
      return read;
    });
    const networkPostId = post.postIds[0]!.id!;

    if (journey.analytics) {
      await test.step('analytics', async () => {
        const analytics = await client.getPostAnalytics(created.id, [journey.network as never], { profileKey });
        expect(analytics.status, JSON.stringify(analytics)).toBe('success');
        expect((analytics as Record<string, any>)[journey.network]).toMatchObject({ status: 'success', id: networkPostId });
      });
    }
    if (journey.comments) {
      await test.step('comments', async () => {
        // Someone in the audience comments, through the OAuth sandboxes' test switch (bluesky's PDS has none).
        const comment = `A comment on ${journey.network} ${Date.now()}`;
        if (journey.connect === 'consent') {
          const response = await fetch(`${stack.serviceUrl}/sandbox/net/${journey.network}/p/${encodeURIComponent(networkPostId)}/audience-comments`, {
            method: 'POST',
            headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json' },
            body: JSON.stringify({ text: comment, author: 'journey-visitor' }),
          });
          expect(response.status, await response.clone().text()).toBe(200);
        }
        const comments = await client.getComments(created.id, undefined, { profileKey });
        expect(comments.status, JSON.stringify(comments)).toBe('success');
        const listed = (comments as Record<string, unknown>)[journey.network] as { comment: string }[];
        expect(listed).toEqual(expect.any(Array));
        if (journey.connect === 'consent') expect(listed.map((entry) => entry.comment)).toContain(comment);
      });
    }
    if (journey.delete) {
      await test.step('delete', async () => {
        const deleted = await client.deletePost({ id: created.id }, { profileKey });
        expect(JSON.stringify(deleted)).toContain(journey.network);
        expect((await client.getPost(created.id, { profileKey })).status).toBe('deleted');
      });
    }
    await test.step(journey.unlink ? 'unlink' : 'stays linked: not unlinkable through the API', async () => {
      if (journey.unlink) {
        await client.unlinkSocial(journey.network as never, { profileKey });
        expect((await client.getUser({ profileKey })).activeSocialAccounts).not.toContain(journey.network);
      } else {
        expect((await client.getUser({ profileKey })).activeSocialAccounts).toContain(journey.network);
      }
    });
  });
}
