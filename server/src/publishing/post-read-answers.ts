/**
 * @module
 * `GET /api/post/:id` and `GET /api/history` as the JSON text they answer. On SQLite each answer is kept in memory
 * while nothing is committed (core/db/read-memory.ts); on PostgreSQL, which keeps neither answers nor callers in
 * memory, the `…AsKey` reads take the caller in the answer's own statement (post-reads.ts): one round trip.
 */
import type { Network } from '@social-link-kit/protocol';
import type { Caller, KeyHashes } from '../accounts/caller-cache.js';
import type { SqlDriver } from '../core/db/sql-driver.js';
import type { Account, Profile } from '../core/db/storage-types.js';
import { ReadMemory } from '../core/db/read-memory.js';
import { quotaMonth } from './post-quota.js';
import { findAnsweredPostAndQuota, findAnsweredPostAsKey, listAnsweredHistory, listAnsweredHistoryAsKey, type HistoryFilter } from './post-reads.js';
import { historyText, postAnswerText } from './post-answer.js';

/** What the kept post answers and history pages may weigh together (characters of JSON, ~2 bytes each at most). */
const READ_MEMORY_CHARACTERS = 16 * 1024 * 1024;

export class PostReadAnswers {
  readonly #db: SqlDriver;
  /** Post answers and history pages by what they depend on (getAnswer, historyAnswer). */
  readonly #memory: ReadMemory<{ text: string; since?: number; oldest?: number }>;

  constructor(db: SqlDriver) {
    this.#db = db;
    this.#memory = new ReadMemory(db, { sizeOf: (answer) => answer.text.length, maxSize: READ_MEMORY_CHARACTERS });
  }

  /**
   * `GET /api/post/:id` as JSON text: 106 once the month's quota is used (spec 7), then the record. Kept in memory
   * while nothing is committed (SQLite; core/db/read-memory.ts), keyed on everything else it depends on: the
   * profile (and its refId), the plan and month the quota check used, the id. A 106 or 404 is never kept.
   */
  async getAnswer(account: Account, profile: Profile, id: string, now: number): Promise<string> {
    const key = `${profile.id}\n${profile.refId}\n${account.plan}\n${quotaMonth(now)}\n${id}`;
    return (await this.#memory.find(key, async () => ({
      text: postAnswerText(await findAnsweredPostAndQuota(this.#db, profile.id, id, account.plan, now), profile, id),
    })))!.text;
  }

  /**
   * `getAnswer` with the caller of these key hashes read in the same statement (post-reads.ts), for a database
   * where neither is kept in memory (PostgreSQL): one round trip. The answer is a function so that the caller's
   * own refusals (401, 404 of the Profile-Key) come before it, as on the other path.
   */
  async postAnswerAsKey(key: KeyHashes, id: string, now: number): Promise<{ caller: Caller | null; answer: () => string }> {
    const read = await findAnsweredPostAsKey(this.#db, key, id, now);
    return { caller: read.caller, answer: () => postAnswerText(read, read.caller!.profile!, id) };
  }

  /**
   * `GET /api/history`'s answer as JSON text, kept in memory as `getAnswer` is, keyed on the profile and the query
   * as sent (`queryKey`). A window that slides with the clock (`lastDays`) keeps a page only while none of its posts
   * has left it: posts only leave a window as time passes; any new or changed one is a commit.
   */
  async historyAnswer(profile: Profile, queryKey: string, filter: HistoryFilter, platforms: Network[] | null): Promise<string> {
    const key = `history\n${profile.id}\n${profile.refId}\n${queryKey}`;
    const since = filter.since ?? -Infinity;
    const page = await this.#memory.find(
      key,
      async () => {
        const page = await listAnsweredHistory(this.#db, profile.id, filter);
        return {
          text: historyText(page, profile, platforms),
          since,
          oldest: page.length > 0 ? page[page.length - 1]!.post.createdAt : Infinity,
        };
      },
      (kept) => since >= kept.since! && since <= kept.oldest!,
    );
    return page!.text;
  }

  /** `historyAnswer` with the caller read in the same statement, as `postAnswerAsKey`. */
  async historyAnswerAsKey(key: KeyHashes, filter: HistoryFilter, platforms: Network[] | null): Promise<{ caller: Caller | null; answer: () => string }> {
    const { caller, page } = await listAnsweredHistoryAsKey(this.#db, key, filter);
    return { caller, answer: () => historyText(page, caller!.profile!, platforms) };
  }
}
