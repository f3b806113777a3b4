/**
 * Previews that are the truth: `POST /api/validate/post` answers per network the text, thread parts and media the
 * service would send, with a `renditionHash`; create, approve and unpause carrying `expectedRenditionHash` are refused (400,
 * code 101, naming what changed, nothing stored or sent) when it is stale, and go through when it is fresh. What the
 * sandbox networks then receive is the preview (short-link codes aside: they are drawn when the post is stored).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TestService } from '../support/test-service.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from './publishing-fixtures.js';

let svc: TestService;
before(async () => {
  svc = await startPublishingService({ maxPack: true });
  await linkSandboxAccounts(svc, ['twitter', 'linkedin']);
});
after(() => svc.close());

const LONG = Array.from({ length: 40 }, (_, i) => `Sentence number ${i + 1} of a long launch story.`).join(' ');
const withoutCodes = (text: string) => text.replace(/\/s\/[A-Za-z0-9_…-]+/g, '/s/…');

function body(post: string, extra: Record<string, unknown> = {}) {
  return { post, platforms: ['twitter', 'linkedin'], shortenLinks: true, ...extra };
}

async function preview(request: Record<string, unknown>) {
  const answer = await svc.api('POST', '/validate/post', { body: request });
  assert.equal(answer.status, 200, JSON.stringify(answer.json));
  return answer.json as { renditionHash: string; renditions: Record<string, { text: string; parts: string[]; media: unknown[] }> };
}

const postCount = async () => Number((await svc.sql('SELECT COUNT(*) AS n FROM posts')).rows[0]!.n);
const sandboxCount = async () => Number((await svc.sql('SELECT COUNT(*) AS n FROM sandbox_posts')).rows[0]!.n);

describe('previews that are the truth', () => {
  it('answers each network’s rendition: styled text, line breaks, short links, thread parts, media', async () => {
    const shown = await preview(body(`<b>Launch</b> day\n\nRead https://example.com/launch ${LONG}`, { mediaUrls: [`${svc.url}/sandbox/media/photo.png`] }));
    const { twitter, linkedin } = shown.renditions;
    assert.ok(twitter && linkedin);
    assert.doesNotMatch(linkedin.text, /<b>/);
    assert.match(linkedin.text, /^𝗟𝗮𝘂𝗻𝗰𝗵 day\u2063\n\u2063\n/u, 'bold styled, blank line kept with U+2063');
    assert.match(linkedin.text, new RegExp(`${svc.url.replace(/[.:/]/g, '\\$&')}/s/…`));
    assert.ok(twitter.parts.length > 1, 'a thread on twitter');
    assert.deepEqual(linkedin.parts, [linkedin.text]);
    assert.match(shown.renditionHash, /^rh1\.linkedin-[0-9a-f]{16}\.twitter-[0-9a-f]{16}$/);
    const [image] = twitter.media as { kind: string; type: string; width: number; height: number; size: number }[];
    assert.equal(image?.kind, 'image');
    assert.ok(image.width > 0 && image.height > 0 && image.size > 0, JSON.stringify(image));
  });

  it('refuses a create whose preview is stale, naming what changed, and publishes nothing', async () => {
    const stale = await preview(body(`First wording https://example.com/a ${LONG}`));
    const [posts, sent] = [await postCount(), await sandboxCount()];
    const refused = await svc.api('POST', '/post', { body: body(`Second wording https://example.com/a ${LONG}`, { expectedRenditionHash: stale.renditionHash }) });
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 101);
    assert.equal(refused.json.status, 'error');
    assert.deepEqual(refused.json.details.changed, ['linkedin: text', 'twitter: text']);
    assert.match(refused.json.message, /differs from the preview/);
    assert.equal(await postCount(), posts);
    assert.equal(await sandboxCount(), sent);
  });

  it('accepts a fresh hash, and the networks receive exactly the preview', async () => {
    const request = body(`<i>Fresh</i> https://example.com/fresh\n\nnew paragraph ${LONG}`);
    const shown = await preview(request);
    const created = await svc.api('POST', '/post', { body: { ...request, expectedRenditionHash: shown.renditionHash } });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    await waitForPost(svc, created.json.id, (post) => post.status === 'success');
    const [linkedin] = await sandboxPostsFor(svc, created.json.id, 'linkedin');
    assert.equal(withoutCodes(linkedin.text), withoutCodes(shown.renditions.linkedin!.text));
    const tweets = (await sandboxPostsFor(svc, created.json.id, 'twitter')).map((row) => withoutCodes(row.text as string));
    assert.deepEqual(tweets.sort(), shown.renditions.twitter!.parts.map(withoutCodes).sort());
  });

  it('refuses an approval with a stale hash (the post stays held), accepts it with a fresh one', async () => {
    const request = body('Held for a look https://example.com/held', { requiresApproval: true });
    const shown = await preview(request);
    const stale = await preview(body('Something else entirely', { platforms: ['linkedin'] }));
    const created = await svc.api('POST', '/post', { body: request });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const refused = await svc.api('PATCH', '/post', { body: { id: created.json.id, approved: true, expectedRenditionHash: stale.renditionHash } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json.details.changed, ['linkedin: text', 'twitter: added']);
    assert.equal((await svc.api('GET', `/post/${created.json.id}`)).json.status, 'awaiting approval');
    const approved = await svc.api('PATCH', '/post', { body: { id: created.json.id, approved: true, expectedRenditionHash: shown.renditionHash } });
    assert.equal(approved.status, 200, JSON.stringify(approved.json));
    await waitForPost(svc, created.json.id, (post) => post.status === 'success');
  });

  it('refuses an unpause with a stale hash (the post stays paused), accepts it with a fresh one', async () => {
    const request = body('Paused for now', { platforms: ['linkedin'], scheduleDate: '2026-12-24T09:00:00Z' });
    const shown = await preview(request);
    const created = await svc.api('POST', '/post', { body: request });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    assert.equal((await svc.api('PATCH', '/post', { body: { id: created.json.id, scheduledPause: true } })).status, 200);
    const stale = await preview(body('Paused for now, reworded', { platforms: ['linkedin'] }));
    const refused = await svc.api('PATCH', '/post', { body: { id: created.json.id, scheduledPause: false, expectedRenditionHash: stale.renditionHash } });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.json.details.changed, ['linkedin: text']);
    assert.equal((await svc.api('GET', `/post/${created.json.id}`)).json.status, 'paused');
    const resumed = await svc.api('PATCH', '/post', { body: { id: created.json.id, scheduledPause: false, expectedRenditionHash: shown.renditionHash } });
    assert.equal(resumed.status, 200, JSON.stringify(resumed.json));
    assert.equal(resumed.json.postStatus, 'scheduled');
  });
});
