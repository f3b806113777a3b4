/**
 * @module
 * The duplicate rule's index in SQL (spec 4.9 rule 4, migration 17): each platform row's duplicate key is found by
 * its exact value, and a near one by the near-duplicate bands of its text (`post_duplicate_bands`), so a check
 * costs the same however many posts are stored. What "the same" and "near" mean is rules/near-duplicate.ts; this
 * file finds the rows to compare and which of the matching ones count.
 */
import { NETWORKS, type Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import type { Row } from '../core/db/rows.js';
import type { SqlDriver, SqlExecutor } from '../core/db/sql-driver.js';
import { duplicateBands, NEAR_DUPLICATE_BANDS, nearDuplicateMatcher, nearTrigramCounts, trigramCount, type BandLayout } from './rules/near-duplicate.js';

/** Spec 4.9 rule 4: 24 hours either side of the post's own time. */
export const DUPLICATE_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface DuplicateQuery {
  profileId: string;
  accountId: string;
  platform: Network;
  at: number;
  windowMs: number;
  duplicateKey: string;
  acrossAccount: boolean;
}

export class DuplicateIndex {
  readonly #db: SqlDriver;
  readonly #layout: BandLayout;
  /** Up to how many band rows in the window a lookup picks each band's nearest from (FEW_BAND_ROWS). */
  readonly #fewBandRows: number;
  /**
   * The first statement of a lookup, for this profile's rows or (by network) the account's: the exact key alone
   * (`exactOnly`, for a text with no bands) or with the bands' rows in the window (`exactAndBands`).
   */
  readonly #first = new Map<'profile' | Network, { exactOnly: string; exactAndBands: string }>();
  /**
   * Each band's nearest posts (NEAREST_PER_BAND), picked in SQL: one sub-select per band and side. Their rows are
   * then read by `#rowsOf`: as one statement (`post_id IN (this)`) SQLite took 0.72 ms where the two take 0.45-0.53
   * at 100k posts of one profile in the window (issue 31).
   */
  readonly #nearest: string;

  /**
   * `layout` other than the stored one is for tests that show what a weaker index misses; `fewBandRows` 0 is for
   * tests that hold the two ways of picking each band's nearest posts to the same candidates.
   */
  constructor(db: SqlDriver, layout: BandLayout = NEAR_DUPLICATE_BANDS, fewBandRows = FEW_BAND_ROWS) {
    this.#db = db;
    this.#layout = layout;
    this.#fewBandRows = fewBandRows;
    // Typed NULLs: PostgreSQL gives an untyped one in a sub-select the type text, which a UNION with bigint refuses.
    const exactOnly = (owner: string) =>
      `SELECT CAST(NULL AS BIGINT) AS band, CAST(NULL AS BIGINT) AS effective_at, CAST(NULL AS TEXT) AS post_id, CAST(NULL AS INTEGER) AS grams FROM post_platforms pp JOIN posts p ON p.id = pp.post_id
       WHERE ${owner} AND pp.duplicate_key = ? AND pp.effective_at >= ? AND pp.effective_at <= ? AND ${LIVE}
       LIMIT 1`;
    // The bands' rows: at most one more than fewBandRows, which says there are more.
    const exactAndBands = (owner: string) =>
      `SELECT * FROM (${exactOnly(owner)}) exact_key UNION ALL SELECT * FROM (SELECT band, effective_at, post_id, grams FROM post_duplicate_bands
       WHERE profile_id = ? AND platform = ? AND band IN (${Array.from({ length: layout.bands }, () => '?').join(', ')}) AND effective_at >= ? AND effective_at <= ?
       LIMIT ${fewBandRows + 1}) in_window`;
    const statements = (owner: string) => ({ exactOnly: exactOnly(owner), exactAndBands: exactAndBands(owner) });
    this.#first.set('profile', statements('pp.profile_id = ? AND pp.platform = ?'));
    // The account's rows are indexed for the account-wide networks only (migration 25), and SQLite uses a partial
    // index only for a query that names its network as the index does: as a constant, not a parameter.
    for (const network of ACCOUNT_WIDE_NETWORKS) this.#first.set(network, statements(`pp.account_id = ? AND pp.platform = ? AND pp.platform = '${network}'`));
    const nearest = (band: number, side: string, time: string, order: string) =>
      `SELECT post_id, grams FROM (SELECT post_id, grams FROM post_duplicate_bands WHERE profile_id = ? AND platform = ? AND band = ? AND effective_at >= ? AND effective_at ${time} ? ORDER BY effective_at ${order} LIMIT ${NEAREST_PER_BAND}) ${side}_${band}`;
    const nearestPerBand = Array.from({ length: layout.bands }, (_, band) => [nearest(band, 'before', '<', 'DESC'), nearest(band, 'after', '<=', 'ASC')])
      .flat()
      .join(' UNION ALL ');
    this.#nearest = nearestPerBand;
  }

  /**
   * Spec 4.9 rule 4: whether a live row on `platform` around `at` (±`windowMs`) has the same duplicate key (this
   * profile's, and for `acrossAccount` also the account's other profiles') or, among this profile's rows that share
   * a near-duplicate band, a near one (`nearDuplicateMatcher`). Deleted posts and failed platforms do not count: a
   * candidate's post is read only once its text matched (most candidates share a band by chance and never match),
   * so a lookup reads one row per candidate instead of two (issue 31).
   */
  async isDuplicate(input: DuplicateQuery): Promise<boolean> {
    const found = await this.#find(input);
    if (found === 'exact') return true;
    if (found.length === 0) return false;
    const isNear = nearDuplicateMatcher(input.duplicateKey);
    const near = found.filter((row) => isNear(row.duplicateKey)).map((row) => row.postId);
    return near.length > 0 && (await this.#db.get(this.#anyLivePost(near.length), padded(near))) !== null;
  }

  /**
   * The rows `isDuplicate` confirms, by their distinct keys: the exact key's, or the live rows that share a band.
   * For tests and measurements of the index (its recall against the full scan, its bound).
   */
  async candidates(input: DuplicateQuery): Promise<{ duplicateKey: string; sameProfile: boolean }[]> {
    const found = await this.#find(input);
    if (found === 'exact') return [{ duplicateKey: input.duplicateKey, sameProfile: true }];
    if (found.length === 0) return [];
    const ids = found.map((row) => row.postId);
    const live = new Set((await this.#db.all(this.#livePosts(ids.length), padded(ids))).map((row) => row.id as string));
    const keys = new Set(found.filter((row) => live.has(row.postId)).map((row) => row.duplicateKey));
    return [...keys].map((duplicateKey) => ({ duplicateKey, sameProfile: true }));
  }

  /**
   * 'exact' when a live row has the same key; else this profile's rows (not failed or deleted; their posts not yet
   * read) that share a band, each band's nearest in time. One statement when no band is shared, the usual case
   * (issue 31): the exact key's row and the bands' rows in the window, while they are few; the nearest of them per
   * band are then picked here, as `#nearest` would in SQL.
   */
  async #find(input: DuplicateQuery): Promise<'exact' | { postId: string; duplicateKey: string }[]> {
    const from = input.at - input.windowMs;
    const to = input.at + input.windowMs;
    const bands = duplicateBands(input.duplicateKey, this.#layout);
    const exact = [input.acrossAccount ? input.accountId : input.profileId, input.platform, input.duplicateKey, from, to];
    const statements = this.#first.get(input.acrossAccount ? input.platform : 'profile');
    if (!statements) throw new Error(`${input.platform} has no account-wide duplicate rule`);
    if (bands.length === 0) return (await this.#db.all(statements.exactOnly, exact)).length > 0 ? 'exact' : [];
    const first = await this.#db.all(statements.exactAndBands, [...exact, input.profileId, input.platform, ...bands, from, to]);
    if (first.some((row) => row.band === null)) return 'exact';
    if (first.length === 0) return [];
    const nearest = first.length <= this.#fewBandRows ? nearestPerBand(first, input.at) : await this.#nearestInSql(input, bands);
    // Only texts whose trigram count can be near are read (most candidates of a heavy profile are not).
    const { min, max } = nearTrigramCounts(trigramCount(input.duplicateKey));
    const postIds = [...new Set(nearest.filter((row) => Number(row.grams) >= min && Number(row.grams) <= max).map((row) => row.post_id as string))];
    if (postIds.length === 0) return [];
    const rows = await this.#db.all(this.#rowsOf(postIds.length), [input.platform, ...padded(postIds)]);
    return rows.map((row) => ({ postId: row.post_id as string, duplicateKey: (row.duplicate_key as string | null) ?? '' }));
  }

  /** Each band's nearest posts and their trigram counts, picked in SQL (the bands' rows in the window are many). */
  #nearestInSql(input: DuplicateQuery, bands: number[]): Promise<Row[]> {
    const { profileId, platform, at } = input;
    const [from, to] = [at - input.windowMs, at + input.windowMs];
    return this.#db.all(this.#nearest, bands.flatMap((band) => [profileId, platform, band, from, at, profileId, platform, band, at, to]));
  }

  /** The platform rows (not failed or deleted) of `count` posts (the count padded as `padded` pads it, so the SQL texts stay few). */
  #rowsOf(count: number): string {
    return `SELECT pp.post_id, pp.duplicate_key FROM post_platforms pp WHERE pp.platform = ? AND pp.post_id IN (${marks(count)}) AND ${LIVE_ROW}`;
  }

  /** Which of `count` posts are not deleted. */
  #livePosts(count: number): string {
    return `SELECT id FROM posts WHERE id IN (${marks(count)}) AND ${LIVE_POST}`;
  }

  /** Whether any of `count` posts is not deleted. */
  #anyLivePost(count: number): string {
    return `SELECT 1 AS live FROM posts WHERE id IN (${marks(count)}) AND ${LIVE_POST} LIMIT 1`;
  }

  /** The bands of a new platform row, written with it. */
  async insertBands(tx: SqlExecutor, postId: string, platform: string, profileId: string, duplicateKey: string | null, effectiveAt: number): Promise<void> {
    const bands = duplicateBands(duplicateKey ?? '', this.#layout);
    if (bands.length === 0) return;
    const grams = trigramCount(duplicateKey!);
    await tx.run(
      `INSERT INTO post_duplicate_bands (profile_id, platform, band, effective_at, post_id, grams) VALUES ${bands.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ON CONFLICT DO NOTHING`,
      bands.flatMap((band) => [profileId, platform, band, effectiveAt, postId, grams]),
    );
  }

  /**
   * A rescheduled post's bands move in time with its rows: `rows` are its platform rows as they were before the
   * move (their bands are found by their key, which holds the old time), written again at `effectiveAt`.
   */
  async moveBands(tx: SqlExecutor, rows: BandedRow[], effectiveAt: number): Promise<void> {
    for (const row of rows) {
      const bands = row.profileId ? duplicateBands(row.duplicateKey ?? '', this.#layout) : [];
      if (bands.length === 0) continue;
      await tx.run(
        `DELETE FROM post_duplicate_bands WHERE profile_id = ? AND platform = ? AND band IN (${bands.map(() => '?').join(', ')}) AND effective_at = ? AND post_id = ?`,
        [row.profileId, row.platform, ...bands, row.effectiveAt, row.postId],
      );
      await this.insertBands(tx, row.postId, row.platform, row.profileId!, row.duplicateKey, effectiveAt);
    }
  }

  /**
   * Drops the bands of rows that no new post can meet any more (effective before `before`). The table has no time
   * index (it would be a second B-tree written with every post): this reads it, about two days of posts plus the
   * scheduled ones (~70 ms per million rows on SQLite), every few minutes.
   */
  async prune(before: number): Promise<number> {
    return this.#db.run('DELETE FROM post_duplicate_bands WHERE effective_at < ?', [before]);
  }

  /**
   * Gives the bands to every platform row that can still meet a new post (effective from `since` on) when
   * migration 24 asked for it (the bands' form changed, and rows stored before migration 17 had none); runs at
   * start, nothing to do on later starts. Idempotent: a start that stops half way does it again.
   */
  async backfill(since: number): Promise<number> {
    if (!(await this.#db.get('SELECT pending FROM post_duplicate_bands_backfill LIMIT 1'))) return 0;
    const rows = await this.#db.all(
      // Every network named, so the (platform, effective_at) index bounds the read to the window, not the table.
      `SELECT pp.post_id, pp.platform, pp.profile_id, pp.duplicate_key, pp.effective_at FROM post_platforms pp
       WHERE pp.platform IN (${NETWORKS.map(() => '?').join(', ')}) AND pp.effective_at >= ? AND pp.duplicate_key IS NOT NULL AND pp.profile_id IS NOT NULL`,
      [...NETWORKS, since],
    );
    for (let at = 0; at < rows.length; at += BACKFILL_BATCH) {
      await this.#db.transaction(async (tx) => {
        for (const row of rows.slice(at, at + BACKFILL_BATCH)) {
          await this.insertBands(tx, row.post_id as string, row.platform as string, row.profile_id as string, row.duplicate_key as string, Number(row.effective_at));
        }
      });
    }
    await this.#db.run('DELETE FROM post_duplicate_bands_backfill');
    return rows.length;
  }
}

/** A platform row as the bands know it. */
export interface BandedRow {
  postId: string;
  platform: string;
  profileId: string | null;
  duplicateKey: string | null;
  effectiveAt: number;
}

/**
 * At most this many posts per band on each side of the new post's time, the nearest: a lookup reads at most
 * 2 x 4 x 10 = 80 band rows however many posts of one profile share a band (a heavy profile whose texts are much
 * alike), instead of every one of them (4,329 candidates at 100k posts in the window in bench/duplicate-check.mjs),
 * and the platform rows of those whose trigram count can be near (migration 26). A near duplicate is then missed only
 * if each band it shares (5 of 10 on average at the 0.85 threshold) holds 4 or more other posts nearer in time on its
 * side (failed and deleted ones count: they are dropped after the bound); an unrelated text shares a given band with
 * probability s^4, 0.16 % at s = 0.2 and 0.8 % at 0.3, so a band holds 4 of them only when a profile has hundreds
 * to thousands of posts in the window. This is a bound on cost, not a recall guarantee for such profiles:
 * publishing-duplicate-recall.test.ts (1,668 posts in the window) still finds every pair with it; a retry or a double
 * submit, the usual duplicate, is nearest in time and found first.
 */
export const NEAREST_PER_BAND = 4;

/** The networks whose duplicate rule spans the whole account (spec 4.9 rule 4): `post_platforms_account_key` holds their rows. */
export const ACCOUNT_WIDE_NETWORKS: readonly Network[] = NETWORKS.filter((network) => PUBLISHING_CAPABILITIES[network].duplicateCheck === 'account');

/** Deleted posts and failed platforms are no duplicates. */
const LIVE_ROW = `pp.status NOT IN ('error', 'deleted')`;
const LIVE_POST = `status <> 'deleted'`;
const LIVE = `p.${LIVE_POST} AND ${LIVE_ROW}`;

/**
 * While a lookup's bands hold at most this many rows in the window (every one of them is read), their nearest
 * posts are picked from those rows (`nearestPerBand`); beyond it, `#nearest` picks them in SQL.
 */
const FEW_BAND_ROWS = 80;

/**
 * The band rows `#nearest` would pick from every band row in the window: per band, the
 * NEAREST_PER_BAND nearest before `at` and from `at` on, in its index order (time, then post, away from `at`).
 */
function nearestPerBand(rows: Row[], at: number): Row[] {
  const sides = new Map<string, Row[]>();
  for (const row of rows) {
    const side = `${String(row.band)} ${Number(row.effective_at) < at ? 'before' : 'after'}`;
    let list = sides.get(side);
    if (!list) sides.set(side, (list = []));
    list.push(row);
  }
  const chosen: Row[] = [];
  for (const [side, list] of sides) {
    const away = side.endsWith('before') ? -1 : 1;
    const postId = (row: Row) => row.post_id as string;
    list.sort((a, b) => away * (Number(a.effective_at) - Number(b.effective_at) || (postId(a) < postId(b) ? -1 : postId(a) > postId(b) ? 1 : 0)));
    chosen.push(...list.slice(0, NEAREST_PER_BAND));
  }
  return chosen;
}

/** `count` rounded up to a power of two: the IN lists' lengths, so a few SQL texts serve every count. */
function paddedLength(count: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(count, 1)));
}

/** `count` (padded) parameter marks of an IN list. */
function marks(count: number): string {
  return Array.from({ length: paddedLength(count) }, () => '?').join(', ');
}

/** `ids` repeated up to `paddedLength` (a repeated id in an IN list changes nothing). */
function padded(ids: string[]): string[] {
  return Array.from({ length: paddedLength(ids.length) }, (_, i) => ids[i % ids.length]!);
}

/** Rows given their bands per transaction by the backfill. */
const BACKFILL_BATCH = 500;
