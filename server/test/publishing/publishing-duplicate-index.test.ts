/**
 * The duplicate rule (137) through its index (migration 17) finds what the full scan of the window found: on a
 * seeded corpus of a few thousand texts and edited copies (words swapped, typos, emoji, CJK, hashtags moved), every
 * pair the similarity test calls a near duplicate shares a band (recall), and the bands of unrelated texts rarely
 * meet (so the lookup stays small). Through the API: a near duplicate of a post among many others is refused, an
 * unrelated text is not, and a rescheduled post's bands move with it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { duplicateBands, nearDuplicateMatcher, normalizeForDuplicates } from '../../src/publishing/rules/near-duplicate.js';
import { startPublishingService } from './publishing-fixtures.js';
import { PostStore } from '../../src/publishing/post-store.js';
import type { TestService } from '../support/test-service.js';
import { mulberry32 } from '../support/seeded-random.js';

const WORDS = 'spring sale today shop new collection launch team hello weekend coffee city market open free event join us our best price limited offer order now music night photo travel summer winter'.split(' ');
const EXTRAS = ['🎉', '🚀', '東京', '新しい', '👩‍👩‍👧', '#launch', '#Sale', 'https://example.com/x?utm=1', '!!!'];

function corpus(rand: () => number, size: number): string[] {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  return Array.from({ length: size }, () => Array.from({ length: 8 + Math.floor(rand() * 25) }, () => (rand() < 0.12 ? pick(EXTRAS) : pick(WORDS))).join(' '));
}

function edited(rand: () => number, text: string): string {
  const chars = Array.from(text);
  const edits = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(rand() * chars.length);
    const kind = rand();
    if (kind < 0.4) chars[at] = String.fromCharCode(97 + Math.floor(rand() * 26));
    else if (kind < 0.7) chars.splice(at, 1);
    else chars.splice(at, 0, rand() < 0.5 ? '🎉' : 'x');
  }
  return chars.join('');
}

describe('duplicate rule through its index', () => {
  it('every near duplicate the similarity test finds shares a band (recall over a seeded corpus)', () => {
    const rand = mulberry32(20261127);
    const texts = corpus(rand, 3_000);
    let near = 0;
    let found = 0;
    for (const text of texts) {
      const key = normalizeForDuplicates(text);
      const copy = normalizeForDuplicates(edited(rand, text));
      if (!nearDuplicateMatcher(key)(copy)) continue;
      near++;
      const bands = new Set(duplicateBands(key));
      if (copy === key || duplicateBands(copy).some((band) => bands.has(band))) found++;
    }
    assert.ok(near > 1_000, `the corpus must hold many near duplicates (${near})`);
    assert.ok(found / near >= 0.999, `recall ${found}/${near}`);
  });

  it('unrelated texts rarely share a band, so the lookup stays small', () => {
    const rand = mulberry32(7);
    const texts = corpus(rand, 600).map(normalizeForDuplicates);
    const bands = texts.map((key) => new Set(duplicateBands(key)));
    let meeting = 0;
    let pairs = 0;
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        if (nearDuplicateMatcher(texts[i]!)(texts[j]!)) continue;
        pairs++;
        if (duplicateBands(texts[j]!).some((band) => bands[i]!.has(band))) meeting++;
      }
    }
    // The corpus draws from 33 words, so unrelated texts still share many trigrams; a broken band (all equal) gives 100 %.
    assert.ok(meeting / pairs < 0.1, `${meeting} of ${pairs} unrelated pairs share a band`);
  });

  describe('through the API', () => {
    let svc: TestService;
    before(async () => {
      svc = await startPublishingService();
      const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform: 'facebook' } });
      assert.equal(linked.status, 200);
    });
    after(() => svc.close());

    it('refuses a near duplicate among many posts, accepts an unrelated text, and follows a rescheduled post', async () => {
      const at = (hours: number) => new Date(svc.clock() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const rand = mulberry32(99);
      for (const [i, text] of corpus(rand, 40).entries()) {
        const created = await svc.api('POST', '/post', { body: { post: `${text} number ${i}`, platforms: ['facebook'], scheduleDate: at(2 + i / 10) } });
        assert.equal(created.status, 200, JSON.stringify(created.json));
      }
      const original = 'Our spring collection is finally here. Come by the shop this weekend and say hello to the team.';
      const first = await svc.api('POST', '/post', { body: { post: original, platforms: ['facebook'], scheduleDate: at(10) } });
      assert.equal(first.status, 200);
      const near = await svc.api('POST', '/post', { body: { post: original.replace('finally', 'finaly'), platforms: ['facebook'], scheduleDate: at(11) } });
      assert.equal(near.json.code, 137, JSON.stringify(near.json));
      const other = await svc.api('POST', '/post', { body: { post: 'A completely different announcement about the winter market in the old town.', platforms: ['facebook'], scheduleDate: at(11) } });
      assert.equal(other.status, 200, JSON.stringify(other.json));
      // Moved three days later, the first post no longer meets a post at hour 11; its copy at hour 80 is refused.
      assert.equal((await svc.api('PATCH', '/post', { body: { id: first.json.id, scheduleDate: at(78) } })).status, 200);
      assert.equal((await svc.api('POST', '/post', { body: { post: original.replace('finally', 'finaly'), platforms: ['facebook'], scheduleDate: at(11) } })).status, 200);
      assert.equal((await svc.api('POST', '/post', { body: { post: original.replace('weekend', 'weekends'), platforms: ['facebook'], scheduleDate: at(80) } })).json.code, 137);
      // Bands no new post can meet any more are pruned; the others stay.
      const bands = async () => Number((await svc.sql('SELECT COUNT(*) AS n FROM post_duplicate_bands')).rows[0]!.n);
      const before = await bands();
      assert.equal(await new PostStore(svc.storage.driver).duplicates.prune(svc.clock() + 12 * 3_600_000), 10 * 42);
      assert.equal(await bands(), before - 10 * 42, 'the 42 posts before hour 12 lost their bands, the one moved to hour 78 kept its own');
    });

    it('does not count a deleted post, whose platform rows still look live: its post is read once the text matched', async () => {
      const at = (hours: number) => new Date(svc.clock() + hours * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const original = 'The winter market opens on Friday with forty stalls, hot cider and a brass band by the old bridge.';
      const copy = original.replace('forty', 'fourty');
      const first = await svc.api('POST', '/post', { body: { post: original, platforms: ['facebook'], scheduleDate: at(30) } });
      assert.equal(first.status, 200, JSON.stringify(first.json));
      assert.equal((await svc.api('POST', '/post', { body: { post: copy, platforms: ['facebook'], scheduleDate: at(31) } })).json.code, 137);
      assert.equal((await svc.api('POST', '/post', { body: { post: original, platforms: ['facebook'], scheduleDate: at(32) } })).json.code, 137, 'the same text');
      assert.equal((await svc.api('DELETE', '/post', { body: { id: first.json.id } })).status, 200);
      const rows = await svc.sql(`SELECT status FROM post_platforms WHERE post_id = ?`, [first.json.id]);
      assert.notEqual(rows.rows[0]!.status, 'deleted', 'the platform row is not marked: only the post says it is gone');
      const again = await svc.api('POST', '/post', { body: { post: copy, platforms: ['facebook'], scheduleDate: at(31) } });
      assert.equal(again.status, 200, JSON.stringify(again.json));
      assert.equal((await svc.api('POST', '/post', { body: { post: original.replace('brass', 'big brass'), platforms: ['facebook'], scheduleDate: at(33) } })).json.code, 137, 'the live copy counts');
    });
  });
});
