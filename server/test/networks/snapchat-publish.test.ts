/**
 * The real snapchat adapter against the sandbox Snap Public Profile API of a real service on loopback, through
 * `POST /api/post`: the media encrypted (AES-256-CBC) and uploaded in parts, decrypted by the sandbox to the very
 * bytes of the source, then posted as a story, a saved story or a spotlight; options and media checked at create
 * time; 401 relink, 429 with Retry-After; reconcile by the media id; and Snap's recorded error bodies classified.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { PreparedState, PublishDone, PublishFailure } from '../../src/networks/publish-adapter.js';
import { classifySnapError } from '../../src/networks/snapchat/classify.js';
import { decryptSnapMedia, encryptForSnap } from '../../src/networks/snapchat/media-encryption.js';
import { snapchatPublishAdapter as adapter } from '../../src/networks/snapchat/publish.js';
import type { SnapAnswer } from '../../src/networks/snapchat/snap-api.js';
import { linkSandboxAccounts, sandboxPostsFor, startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';
import type { TestService } from '../support/test-service.js';

describe('snapchat adapter against the sandbox Snap Public Profile API', () => {
  let svc: TestService;
  let n = 0;
  const fresh = (text: string) => `${text} #${++n}`;
  before(async () => {
    svc = await startPublishingService();
    await linkSandboxAccounts(svc, ['snapchat']);
  });
  after(() => svc.close());

  const post = (body: Record<string, unknown>) => svc.api('POST', '/post', { body: { platforms: ['snapchat'], ...body } });
  const bytesOf = async (url: string) => Buffer.from(await (await fetch(url)).arrayBuffer());

  it('a story with a photo: the sandbox decrypts the upload to the source bytes; the post URL shows it', async () => {
    const photo = `${svc.url}/sandbox/media/photo.jpg`;
    const created = await post({ post: fresh('Behind the scenes'), mediaUrls: [photo] });
    assert.equal(created.json.status, 'success', JSON.stringify(created.json));
    const entry = created.json.postIds[0];
    assert.match(entry.id, /^[0-9a-f-]{36}$/);
    const [row] = await sandboxPostsFor(svc, created.json.id, 'snapchat');
    assert.equal(JSON.parse(row.record).kind, 'story');
    const [media] = JSON.parse(row.media);
    assert.ok((await bytesOf(`${svc.url}${media.url}`)).equals(await bytesOf(photo)));
    const page = await fetch(entry.postUrl);
    assert.equal(page.status, 200);
  });

  it('a saved story takes the text as its title; a spotlight is a video with the text as its description', async () => {
    const saved = await post({ post: fresh('Our menu'), mediaUrls: [`${svc.url}/sandbox/media/photo.png`], snapchatOptions: { type: 'saved_story' } });
    assert.equal(saved.json.status, 'success', JSON.stringify(saved.json));
    const savedRecord = JSON.parse((await sandboxPostsFor(svc, saved.json.id, 'snapchat'))[0].record);
    assert.deepEqual([savedRecord.kind, savedRecord.title], ['saved_story', `Our menu #${n}`]);
    const video = `${svc.url}/sandbox/media/video-10s.mp4`;
    const spotlight = await post({ post: fresh('Watch this #food'), mediaUrls: [video], isVideo: true, snapchatOptions: { type: 'spotlight' } });
    assert.equal(spotlight.json.status, 'success', JSON.stringify(spotlight.json));
    const [row] = await sandboxPostsFor(svc, spotlight.json.id, 'snapchat');
    assert.deepEqual([JSON.parse(row.record).kind, JSON.parse(row.record).description], ['spotlight', `Watch this #food #${n}`]);
    assert.ok((await bytesOf(`${svc.url}${JSON.parse(row.media)[0].url}`)).equals(await bytesOf(video)));
  });

  it('no media, two media, a photo spotlight, unknown options and a long saved-story title are refused at create time, platform named', async () => {
    const photo = `${svc.url}/sandbox/media/photo.jpg`;
    const cases: [Record<string, unknown>, number][] = [
      [{ post: 'text only' }, 164],
      [{ post: 'two', mediaUrls: [photo, `${svc.url}/sandbox/media/photo.png`] }, 164],
      [{ post: 'photo spotlight', mediaUrls: [photo], snapchatOptions: { type: 'spotlight' } }, 164],
      [{ post: 'bad type', mediaUrls: [photo], snapchatOptions: { type: 'reel' } }, 101],
      [{ post: 'unknown', mediaUrls: [photo], snapchatOptions: { lens: 'x' } }, 101],
      [{ post: 'x'.repeat(46), mediaUrls: [photo], snapchatOptions: { type: 'saved_story' } }, 101],
    ];
    for (const [body, code] of cases) {
      const answer = await post({ ...body, scheduleDate: '2027-01-01T10:00:00Z' });
      assert.equal(answer.status, 400, JSON.stringify(answer.json));
      assert.equal(answer.json.code, code, JSON.stringify(answer.json));
      assert.match(answer.json.message, /snapchat/);
    }
  });

  it('faults: 401 asks for a relink; 429 is retryable after the Retry-After Snap sent', async () => {
    const revoked = await post({ post: fresh('revoked [[fault:401]]'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const error = (await waitForPost(svc, revoked.json.id, (p) => p.status === 'error')).errors[0];
    assert.deepEqual([error.code, error.relink], [401, true], JSON.stringify(error));

    const linked = await linkSandboxAccount(svc, 'snapchat');
    const ctx = linked.context(`${svc.url}/sandbox/snapchat`, { text: fresh('busy [[fault:429]]'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const limited = (await adapter.commit(ctx, (await adapter.prepare(ctx, null)) as PreparedState)) as PublishFailure;
    assert.deepEqual([limited.code, limited.retryAvailable, limited.retryAfterMs], [429, true, 30_000]);
  });

  it('reconcile finds the story an interrupted commit made by its media id, and nothing when the commit never ran; a container posts once', async () => {
    const linked = await linkSandboxAccount(svc, 'snapchat');
    const base = `${svc.url}/sandbox/snapchat`;
    const ctx = linked.context(base, { text: fresh('made before the crash'), mediaUrls: [`${svc.url}/sandbox/media/photo.jpg`] });
    const prepared = (await adapter.prepare(ctx, null)) as PreparedState;
    assert.equal(await adapter.reconcile(ctx, prepared), null);
    const done = (await adapter.commit(ctx, prepared)) as PublishDone;
    assert.equal(done.kind, 'done', JSON.stringify(done));
    assert.equal(((await adapter.reconcile(ctx, prepared)) as PublishDone).id, done.id);
    const again = await adapter.commit(ctx, prepared);
    assert.equal(again.kind === 'failed' && again.code, 164);
  });

  it('the sandbox refuses an upload it cannot decrypt, and another profile', async () => {
    const linked = await linkSandboxAccount(svc, 'snapchat');
    const token = linked.tokens().accessToken as string;
    const call = (path: string, body: unknown) =>
      fetch(`${svc.url}/sandbox/snapchat${path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const me = (await (await fetch(`${svc.url}/sandbox/snapchat/v1/me/public_profile`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { public_profile: { id: string } };
    const sealed = encryptForSnap(await bytesOf(`${svc.url}/sandbox/media/photo.jpg`));
    const other = encryptForSnap(Buffer.from('x'));
    const container = (await (await call(`/v1/public_profiles/${me.public_profile.id}/media`, { type: 'IMAGE', name: 'n', key: other.key, iv: sealed.iv })).json()) as Record<string, string>;
    const form = new FormData();
    form.set('action', 'ADD');
    form.set('part_number', '1');
    form.set('file', new Blob([new Uint8Array(sealed.parts[0]!)]));
    assert.equal((await fetch(`${svc.url}/sandbox/snapchat${container.add_path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form })).status, 200);
    const finalize = new FormData();
    finalize.set('action', 'FINALIZE');
    const refused = await fetch(`${svc.url}/sandbox/snapchat${container.finalize_path}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: finalize });
    assert.equal(refused.status, 400);
    assert.match(((await refused.json()) as { debug_message: string }).debug_message, /decryption failed/);
    assert.equal((await call('/v1/public_profiles/00000000-0000-4000-a000-000000000000/stories', { media_id: container.media_id })).status, 403);
  });

  it('encryption round trip in 32 MB parts (here smaller parts), as openssl enc -aes-256-cbc writes it', () => {
    const source = Buffer.from('a'.repeat(100));
    const sealed = encryptForSnap(source, 48);
    assert.equal(sealed.parts.length, 3);
    assert.ok(decryptSnapMedia(Buffer.concat(sealed.parts), sealed.key, sealed.iv).equals(source));
  });
});

describe('classifySnapError on recorded Snap error bodies', () => {
  const answer = (status: number, json: Record<string, unknown>, headers: Record<string, string> = {}): SnapAnswer => ({ status, json, headers: new Headers(headers) });
  const body = (message: string, code: string) => ({ request_status: 'ERROR', request_id: '5f1a', debug_message: message, display_message: message, error_code: code });
  it('maps each body to its code', () => {
    const cases: [SnapAnswer, number, boolean, boolean][] = [
      [answer(401, body('The access token is invalid or has expired.', 'E1001')), 401, false, true],
      [answer(403, body('The organization is not allowlisted for the Public Profile API.', 'E1003')), 101, false, false],
      [answer(429, body('Too many requests; slow down.', 'E1008'), { 'retry-after': '30' }), 429, true, false],
      [answer(500, body('Internal server error.', 'E9999')), 500, true, false],
      [answer(503, { message: 'upstream connect error' }), 500, true, false],
      [answer(400, body('Media decryption failed: check the encryption key and iv.', 'E3007')), 164, false, false],
      [answer(400, body('The media has expired (containers live 24 hours).', 'E3011')), 164, false, false],
      [answer(400, body('A saved story title is at most 45 characters.', 'E2005')), 101, false, false],
      [{ status: 0, json: {}, headers: new Headers(), transportError: 'ECONNRESET' }, 500, true, false],
    ];
    for (const [input, code, retry, relink] of cases) {
      const failure = classifySnapError(input);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink], [code, retry, relink], JSON.stringify(input.json));
    }
    assert.equal(classifySnapError(cases[2]![0]).retryAfterMs, 30_000);
  });
});
