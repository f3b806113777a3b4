/**
 * The Storage contract: the same assertions on every backend. SQLite always; PostgreSQL when TEST_DATABASE_URL
 * points at a server (scripts/with-postgres.sh). Each backend opens two Storage objects on one database, as two
 * service instances would, and several checks go through both at once.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { NETWORKS, type Network } from '@social-link-kit/protocol';
import { createAccount, deleteProfile } from '../../src/accounts/service.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { freshDatabase } from '../support/fresh-database.js';
import { POSTGRES_MIGRATIONS, SQLITE_MIGRATIONS } from '../../src/core/db/schema.js';
import { SqliteStorage } from '../../src/storage/sqlite.js';
import type { IntegrationKey, NewLinkSession, Profile, SocialAccount } from '../../src/core/db/storage-types.js';
import type { Storage } from '../../src/storage/storage.js';
import { hashSecret, newId, newSecret } from '../../src/core/tokens.js';
import { linkAccount } from '../../src/linking/service.js';
import { unlinkAccount } from '../../src/linking/unlink.js';

/** A fresh database with two Storage objects on it, and raw SQL for looking behind the interface. */
interface BackendDatabase {
  one: Storage;
  two: Storage;
  sql(query: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

interface Backend {
  name: 'sqlite' | 'postgres';
  open(): Promise<BackendDatabase>;
}

const sqliteBackend: Backend = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'slk-contract-'));
    const file = join(dir, 'contract.db');
    const one = new SqliteStorage(file);
    const two = new SqliteStorage(file);
    await Promise.all([one.migrate(), two.migrate()]);
    return {
      one,
      two,
      async sql(query) {
        const db = new Database(file, { readonly: true });
        try {
          return db.prepare(query).all() as Record<string, unknown>[];
        } finally {
          db.close();
        }
      },
      async close() {
        await one.close();
        await two.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

function postgresBackend(server: string): Backend {
  return {
    name: 'postgres',
    async open() {
      const database = await freshDatabase('slk_contract', server);
      const one = new PostgresStorage(database.url);
      const two = new PostgresStorage(database.url);
      // Both instances start at once: the advisory lock lets exactly one apply each version.
      await Promise.all([one.migrate(), two.migrate()]);
      return {
        one,
        two,
        sql: (query) => database.query(query),
        async close() {
          await one.close();
          await two.close();
          await database.drop();
        },
      };
    },
  };
}

const backends: Backend[] = [sqliteBackend];
if (process.env.TEST_DATABASE_URL) backends.push(postgresBackend(process.env.TEST_DATABASE_URL));

const T0 = Date.parse('2026-11-22T12:00:00Z');
/** A webhook claim's lease (real time, as every job lease): long enough to hold across this test's steps. */
const LEASE_MS = 1500;
const MINUTE = 60_000;

it('both backends have the same schema versions', () => {
  // A migration added to one backend only fails here, before it can make the backends differ.
  assert.equal(POSTGRES_MIGRATIONS.length, SQLITE_MIGRATIONS.length);
});

it('runs on PostgreSQL too when TEST_DATABASE_URL is set', { skip: process.env.TEST_DATABASE_URL ? false : 'SQLite only: no TEST_DATABASE_URL' }, () => {
  assert.deepEqual(
    backends.map((backend) => backend.name),
    ['sqlite', 'postgres'],
  );
});

for (const backend of backends) {
  describe(`storage contract: ${backend.name}`, () => {
    let db: BackendDatabase;
    before(async () => {
      db = await backend.open();
    });
    after(async () => {
      await db?.close();
    });

    /** A new account with its primary profile, on instance one. */
    const newAccount = () => createAccount(db.one, () => T0);

    const newSession = (accountId: string, profileId: string, overrides: Partial<NewLinkSession> = {}): NewLinkSession => ({
      id: newId('ls_'),
      tokenHash: hashSecret(newSecret()),
      accountId,
      profileId,
      origin: 'https://integrator.example',
      redirect: null,
      domain: 'dev',
      allowedSocial: null,
      instagramLinkMethod: null,
      createdAt: T0,
      expiresAt: T0 + 5 * MINUTE,
      ...overrides,
    });

    const socialAccount = (profileId: string, platform: Network, who = 'someone'): SocialAccount => ({
      profileId,
      platform,
      networkUserId: `${who}-${platform}`,
      displayName: who,
      username: `@${who}`,
      tokensEncrypted: `sealed:${who}`,
      linkedAt: T0,
    });

    it('records every schema version once, though two instances migrated at once, and migrating again changes nothing', async () => {
      await db.one.migrate();
      await db.two.migrate();
      const versions = (await db.sql('SELECT version FROM schema_migrations ORDER BY version')).map((row) => Number(row.version));
      assert.deepEqual(
        versions,
        SQLITE_MIGRATIONS.map((_, index) => index + 1),
      );
    });

    it('accounts, API keys and profiles round-trip', async () => {
      const { account, primaryProfile, apiKey } = await newAccount();
      assert.deepEqual(await db.two.accounts.findAccount(account.id), account);
      assert.deepEqual(await db.two.accounts.findAccountByApiKeyHash(hashSecret(apiKey)), account);
      assert.equal(await db.two.accounts.findAccountByApiKeyHash(hashSecret('sk_unknown')), null);
      assert.deepEqual(await db.two.accounts.findPrimaryProfile(account.id), primaryProfile);

      await db.one.accounts.updateAccount(account.id, { name: 'Renamed', maxPack: false, domains: ['a', 'b'], allowedOrigins: ['https://x.example'] });
      const updated = (await db.two.accounts.findAccount(account.id))!;
      assert.equal(updated.name, 'Renamed');
      assert.equal(updated.maxPack, false);
      assert.deepEqual(updated.domains, ['a', 'b']);
      assert.deepEqual(updated.allowedOrigins, ['https://x.example']);
      assert.equal(updated.plan, account.plan);

      const user: Profile = { id: newId('pr_'), accountId: account.id, refId: newId(''), title: 'User', isPrimary: false, createdAt: T0 + 1 };
      await db.one.accounts.createProfile(user, hashSecret('profile-key'));
      assert.deepEqual(await db.two.accounts.findProfileByKeyHash(account.id, hashSecret('profile-key')), user);
      assert.deepEqual(await db.two.accounts.findProfileByRefId(user.refId), user);
      assert.deepEqual(await db.two.accounts.listProfiles(account.id), [user]);

      const session = newSession(account.id, user.id);
      await db.one.linking.createLinkSession(session);
      await linkAccount(db.one, session.id, socialAccount(user.id, 'twitter'), T0);
      await deleteProfile(db.two, user.id, T0 + 2);
      assert.equal(await db.one.accounts.findProfileById(user.id), null);
      assert.equal(await db.one.accounts.findProfileByKeyHash(account.id, hashSecret('profile-key')), null);
      assert.deepEqual(await db.one.accounts.listProfiles(account.id), []);
      assert.deepEqual(await db.one.linking.listSocialAccounts(user.id), []);
      assert.equal((await db.one.linking.findLinkSessionById(session.id))!.revokedAt, T0 + 2);
      assert.ok((await db.one.accounts.countAccounts()) >= 1);
    });

    it('a session written by one instance is found, completed and revoked through the other', async () => {
      const { account, primaryProfile } = await newAccount();
      const other = await newAccount();
      const session = newSession(account.id, primaryProfile.id, { allowedSocial: ['twitter', 'bluesky'], instagramLinkMethod: 'facebook' });
      await db.one.linking.createLinkSession(session);

      const found = (await db.two.linking.findLinkSessionByTokenHash(session.tokenHash))!;
      assert.equal(found.id, session.id);
      assert.deepEqual(found.allowedSocial, ['twitter', 'bluesky']);
      assert.equal(found.instagramLinkMethod, 'facebook');
      assert.deepEqual(found.completedNetworks, []);
      assert.equal(found.completedAt, null);
      assert.equal(found.revokedAt, null);
      assert.equal(found.legacy, false);
      assert.deepEqual(await db.two.linking.findLinkSession(account.id, session.id), found);
      assert.equal(await db.two.linking.findLinkSession(other.account.id, session.id), null, 'another account never sees it');

      assert.deepEqual(await linkAccount(db.two, session.id, socialAccount(primaryProfile.id, 'twitter'), T0 + 1000), {
        stored: true,
        account: socialAccount(primaryProfile.id, 'twitter'),
      });
      await linkAccount(db.one, session.id, socialAccount(primaryProfile.id, 'bluesky'), T0 + 2000);
      // Linking twitter again replaces the account and moves lastCompletedAt, without a second entry.
      await linkAccount(db.two, session.id, socialAccount(primaryProfile.id, 'twitter', 'again'), T0 + 3000);
      const completed = (await db.one.linking.findLinkSessionById(session.id))!;
      assert.deepEqual(completed.completedNetworks, ['twitter', 'bluesky']);
      assert.equal(completed.completedAt, T0 + 1000);
      assert.equal(completed.lastCompletedAt, T0 + 3000);
      assert.equal((await db.one.linking.findSocialAccount(primaryProfile.id, 'twitter'))!.displayName, 'again');

      assert.equal(await db.one.linking.revokeLinkSession(other.account.id, session.id, T0 + 4000), null);
      assert.equal((await db.two.linking.revokeLinkSession(account.id, session.id, T0 + 5000))!.revokedAt, T0 + 5000);
      assert.equal((await db.one.linking.revokeLinkSession(account.id, session.id, T0 + 6000))!.revokedAt, T0 + 5000, 'the first revoke time stays');
      assert.deepEqual(await linkAccount(db.one, session.id, socialAccount(primaryProfile.id, 'bluesky'), T0 + 7000), {
        stored: false,
        reason: 'revoked',
      });
      assert.equal((await db.two.linking.findLinkSessionById(session.id))!.lastCompletedAt, T0 + 3000);
    });

    it('findCaller answers the account of a key and the profile it selects, and nothing for another account\'s profile', async () => {
      const { account, primaryProfile, apiKey } = await newAccount();
      const other = await newAccount();
      const user: Profile = { id: newId('pr_'), accountId: account.id, refId: newId(''), title: 'User', isPrimary: false, createdAt: T0 + 1 };
      const otherUser: Profile = { ...user, id: newId('pr_'), accountId: other.account.id, refId: newId('') };
      await db.one.accounts.createProfile(user, hashSecret(`pk-${user.id}`));
      await db.one.accounts.createProfile(otherUser, hashSecret(`pk-${otherUser.id}`));
      for (const store of [db.one.accounts, db.two.accounts]) {
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), null), { account, profile: primaryProfile });
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), hashSecret(`pk-${user.id}`)), { account, profile: user });
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), hashSecret(`pk-${otherUser.id}`)), { account, profile: null });
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), hashSecret('pk-unknown')), { account, profile: null });
        assert.equal(await store.findCaller(hashSecret('sk_unknown'), null), null);
        assert.equal(await store.findCaller(hashSecret('sk_unknown'), hashSecret(`pk-${user.id}`)), null);
      }
      await deleteProfile(db.two, user.id, T0 + 2);
      // The other instance's cache looks for foreign commits once per event-loop turn (accounts/caller-cache.ts), as a
      // request comes in a turn after the commit it follows.
      await new Promise((resolve) => setImmediate(resolve));
      for (const store of [db.one.accounts, db.two.accounts]) {
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), hashSecret(`pk-${user.id}`)), { account, profile: null });
        assert.deepEqual(await store.findCaller(hashSecret(apiKey), null), { account, profile: primaryProfile });
      }
    });

    it('lists completions in completion order, networks completed at the same time by name', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      for (const [platform, at] of [['youtube', 2000], ['reddit', 1000], ['bluesky', 2000], ['tiktok', 1000]] as const) {
        await linkAccount(db.one, session.id, socialAccount(primaryProfile.id, platform), T0 + at);
      }
      await linkAccount(db.two, session.id, socialAccount(primaryProfile.id, 'reddit', 'again'), T0 + 5000);
      for (const read of [await db.two.linking.findLinkSessionById(session.id), await db.one.linking.findLinkSession(account.id, session.id)]) {
        assert.deepEqual(read!.completedNetworks, ['reddit', 'tiktok', 'bluesky', 'youtube']);
        assert.equal(read!.completedAt, T0 + 1000);
        assert.equal(read!.lastCompletedAt, T0 + 5000);
      }
      assert.deepEqual((await db.one.linking.findLinkSessionByTokenHash(session.tokenHash))!.completedNetworks, ['reddit', 'tiktok', 'bluesky', 'youtube']);
    });

    it('linkAccount refuses expired and unknown sessions and stores nothing', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      assert.deepEqual(await linkAccount(db.two, session.id, socialAccount(primaryProfile.id, 'reddit'), session.expiresAt), {
        stored: false,
        reason: 'expired',
      });
      assert.deepEqual(await linkAccount(db.two, 'ls_missing', socialAccount(primaryProfile.id, 'reddit'), T0), { stored: false, reason: 'missing' });
      assert.equal(await db.one.linking.findSocialAccount(primaryProfile.id, 'reddit'), null);
      assert.deepEqual((await db.one.linking.findLinkSessionById(session.id))!.completedNetworks, []);
      assert.ok((await linkAccount(db.one, session.id, socialAccount(primaryProfile.id, 'reddit'), session.expiresAt - 1)).stored);
    });

    it('concurrent completions of one session through both instances lose nothing', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      // Every network twice, alternating instances, all in flight together.
      const calls = [...NETWORKS, ...NETWORKS].map((platform, index) =>
        linkAccount((index % 2 === 0 ? db.one : db.two), session.id, socialAccount(primaryProfile.id, platform, `w${index}`), T0 + index),
      );
      assert.ok(calls.length >= 20);
      const results = await Promise.all(calls);
      assert.ok(results.every((result) => result.stored));
      const read = (await db.two.linking.findLinkSessionById(session.id))!;
      assert.deepEqual([...read.completedNetworks].sort(), [...NETWORKS].sort());
      assert.equal(new Set(read.completedNetworks).size, NETWORKS.length, 'no network listed twice');
      assert.equal((await db.one.linking.listSocialAccounts(primaryProfile.id)).length, NETWORKS.length);
    });

    it('concurrent completions of many sessions of one profile lose nothing', async () => {
      const { account, primaryProfile } = await newAccount();
      const sessions = Array.from({ length: 10 }, () => newSession(account.id, primaryProfile.id));
      for (const session of sessions) await db.one.linking.createLinkSession(session);
      const platforms: Network[] = ['twitter', 'facebook'];
      await Promise.all(
        sessions.flatMap((session, index) =>
          platforms.map((platform) => linkAccount((index % 2 ? db.one : db.two), session.id, socialAccount(primaryProfile.id, platform), T0)),
        ),
      );
      for (const session of sessions) {
        assert.deepEqual([...(await db.one.linking.findLinkSessionById(session.id))!.completedNetworks].sort(), ['facebook', 'twitter']);
      }
    });

    it('a revoke racing completions on both instances leaves no completion after the revoke', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      const revokeAt = T0 + 1000;
      // Completions in flight on both instances while the other instance revokes: each one commits either wholly
      // before the revoke (stored and listed) or after it (refused as revoked, nothing written).
      const inFlight = NETWORKS.map((platform, index) =>
        linkAccount((index % 2 ? db.one : db.two), session.id, socialAccount(primaryProfile.id, platform), T0 + index),
      );
      const revoke = (NETWORKS.length % 2 ? db.one : db.two).linking.revokeLinkSession(account.id, session.id, revokeAt);
      const results = await Promise.all(inFlight);
      assert.equal((await revoke)!.revokedAt, revokeAt);
      // Once the revoke has committed, nothing gets through on either instance.
      const late = await Promise.all(
        NETWORKS.map((platform, index) =>
          linkAccount((index % 2 ? db.two : db.one), session.id, socialAccount(primaryProfile.id, platform, 'late'), revokeAt + 1 + index),
        ),
      );
      assert.ok(late.every((result) => !result.stored && result.reason === 'revoked'));
      for (const result of results) if (!result.stored) assert.equal(result.reason, 'revoked');
      const stored = NETWORKS.filter((_, index) => results[index]!.stored);
      const read = (await db.two.linking.findLinkSessionById(session.id))!;
      assert.deepEqual([...read.completedNetworks].sort(), [...stored].sort(), 'exactly the stored completions are listed');
      assert.equal(read.revokedAt, revokeAt);
      if (read.lastCompletedAt !== null) assert.ok(read.lastCompletedAt <= revokeAt, 'a completion was recorded after the revoke');
      const rows = await db.sql(`SELECT platform, last_completed_at FROM link_session_completions WHERE session_id = '${session.id}'`);
      assert.ok(rows.every((row) => Number(row.last_completed_at) <= revokeAt));
      for (const account of await db.one.linking.listSocialAccounts(primaryProfile.id)) assert.notEqual(account.displayName, 'late');
    });

    it('deleting profiles while their accounts link and unlink on the other instance never deadlocks', async () => {
      const { account } = await newAccount();
      const races = await Promise.allSettled(
        Array.from({ length: 40 }, async (_, index) => {
          const user: Profile = { id: newId('pr_'), accountId: account.id, refId: newId(''), title: `U${index}`, isPrimary: false, createdAt: T0 };
          await db.one.accounts.createProfile(user, hashSecret(`key-${user.id}`));
          await db.one.webhooks.putWebhook({ profileId: user.id, action: 'social', url: 'https://hooks.example/in', sealedSecret: null, createdAt: T0 });
          const session = newSession(account.id, user.id);
          await db.one.linking.createLinkSession(session);
          await linkAccount(db.one, session.id, socialAccount(user.id, 'twitter'), T0);
          // A link and an unlink committing on instance two while instance one deletes the profile.
          const results = await Promise.all([
            linkAccount(db.two, session.id, socialAccount(user.id, 'reddit'), T0 + 1),
            unlinkAccount(db.two, user.id, 'twitter', T0 + 1),
            deleteProfile(db.one, user.id, T0 + 1),
          ]);
          assert.deepEqual(await db.two.linking.listSocialAccounts(user.id), [], 'nothing survives the deletion');
          // Its events are not this test's subject: finish them so later tests that claim deliveries see none.
          for (const row of await db.one.webhooks.listWebhookDeliveries(user.id)) {
            await db.one.webhooks.finishWebhookDelivery(row.id, { kind: 'delivered', at: T0 + 2 });
          }
          return results;
        }),
      );
      const failures = races.filter((race) => race.status === 'rejected').map((race) => String((race as PromiseRejectedResult).reason));
      assert.deepEqual(failures, []);
    });

    it('unlinkAccount says whether an account was removed', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      await linkAccount(db.one, session.id, socialAccount(primaryProfile.id, 'pinterest'), T0);
      assert.equal(await unlinkAccount(db.two, primaryProfile.id, 'pinterest', T0), true);
      assert.equal(await unlinkAccount(db.one, primaryProfile.id, 'pinterest', T0), false);
      assert.equal(await db.one.linking.findSocialAccount(primaryProfile.id, 'pinterest'), null);
    });

    it('an OAuth attempt starts once and is used once, on either instance, and only before it expires', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      const attempt = {
        ticketHash: hashSecret(newSecret()),
        stateHash: null,
        sessionId: session.id,
        platform: 'linkedin' as const,
        codeVerifier: newSecret(),
        bindingHash: null,
        createdAt: T0,
        expiresAt: T0 + 10 * MINUTE,
        startedAt: null,
        usedAt: null,
        outcome: null,
      };
      await db.one.linking.createOAuthAttempt(attempt);
      const binding = { bindingHash: hashSecret('cookie'), stateHash: hashSecret('state') };
      // Two instances start the same ticket at once: exactly one wins.
      const starts = await Promise.all([db.one.linking.startOAuthAttempt(attempt.ticketHash, binding, T0 + 1), db.two.linking.startOAuthAttempt(attempt.ticketHash, binding, T0 + 1)]);
      assert.equal(starts.filter(Boolean).length, 1);
      const started = starts.find(Boolean)!;
      assert.equal(started.startedAt, T0 + 1);
      assert.equal(started.bindingHash, binding.bindingHash);
      assert.equal(started.codeVerifier, attempt.codeVerifier);

      assert.equal(await db.one.linking.useOAuthAttempt(hashSecret('other state'), T0 + 2), null);
      const uses = await Promise.all([db.one.linking.useOAuthAttempt(binding.stateHash, T0 + 2), db.two.linking.useOAuthAttempt(binding.stateHash, T0 + 2)]);
      assert.equal(uses.filter(Boolean).length, 1, 'state is single use');
      assert.equal((await db.two.linking.findOAuthAttempt(binding.stateHash))!.usedAt, T0 + 2);
      await db.two.linking.recordOAuthOutcome(binding.stateHash, '{"ok":true}');
      assert.equal((await db.one.linking.findOAuthAttempt(binding.stateHash))!.outcome, '{"ok":true}');

      const late = { ...attempt, ticketHash: hashSecret(newSecret()) };
      await db.one.linking.createOAuthAttempt(late);
      assert.equal(await db.two.linking.startOAuthAttempt(late.ticketHash, { bindingHash: 'b', stateHash: hashSecret('late') }, late.expiresAt), null);
      const unused = { ...attempt, ticketHash: hashSecret(newSecret()) };
      await db.one.linking.createOAuthAttempt(unused);
      await db.one.linking.startOAuthAttempt(unused.ticketHash, { bindingHash: 'b', stateHash: hashSecret('unused') }, T0);
      assert.equal(await db.two.linking.useOAuthAttempt(hashSecret('unused'), unused.expiresAt), null, 'an expired state is not usable');
    });

    it('a telegram code is used once and only before it expires', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      const code = { codeHash: hashSecret(newSecret()), sessionId: session.id, createdAt: T0, expiresAt: T0 + MINUTE, usedAt: null };
      await db.one.linking.createTelegramCode(code);
      const uses = await Promise.all([db.one.linking.useTelegramCode(code.codeHash, T0 + 1), db.two.linking.useTelegramCode(code.codeHash, T0 + 1)]);
      assert.equal(uses.filter(Boolean).length, 1);
      assert.deepEqual(uses.find(Boolean), { ...code, usedAt: T0 + 1 });
      const expired = { ...code, codeHash: hashSecret(newSecret()) };
      await db.two.linking.createTelegramCode(expired);
      assert.equal(await db.one.linking.useTelegramCode(expired.codeHash, expired.expiresAt), null);
    });

    it('webhook events commit with the link, and two instances never claim the same delivery', async () => {
      const { account, primaryProfile } = await newAccount();
      const session = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(session);
      await db.one.webhooks.putWebhook({ profileId: primaryProfile.id, action: 'social', url: 'https://old.example/hook', sealedSecret: null, createdAt: T0 });
      await db.two.webhooks.putWebhook({ profileId: primaryProfile.id, action: 'social', url: 'https://hooks.example/in', sealedSecret: 'v1.sealed', createdAt: T0 + 1 });
      assert.deepEqual(await db.one.webhooks.listWebhooks(primaryProfile.id), [
        { profileId: primaryProfile.id, action: 'social', url: 'https://hooks.example/in', sealedSecret: 'v1.sealed', createdAt: T0 + 1 },
      ]);

      const platforms: Network[] = ['twitter', 'facebook', 'threads', 'tiktok', 'youtube', 'reddit'];
      await Promise.all(platforms.map((platform, index) => linkAccount((index % 2 ? db.one : db.two), session.id, socialAccount(primaryProfile.id, platform), T0 + 10)));
      await unlinkAccount(db.one, primaryProfile.id, 'reddit', T0 + 20);
      const queued = await db.two.webhooks.listWebhookDeliveries(primaryProfile.id);
      assert.equal(queued.length, platforms.length + 1);
      assert.deepEqual(queued.map((row) => JSON.parse(row.payload).event).sort(), [...platforms.map(() => 'link'), 'unlink'].sort());

      // Both instances claim at once, in small batches, until nothing is due: each row exactly once.
      const claimedIds: string[] = [];
      for (;;) {
        const batches = await Promise.all([db.one.webhooks.claimWebhookDeliveries(T0 + 30, T0 + 30 + LEASE_MS, 2), db.two.webhooks.claimWebhookDeliveries(T0 + 30, T0 + 30 + LEASE_MS, 2)]);
        const claimed = batches.flat();
        if (claimed.length === 0) break;
        for (const delivery of claimed) {
          assert.equal(delivery.url, 'https://hooks.example/in');
          assert.equal(delivery.sealedSecret, 'v1.sealed');
          assert.equal(delivery.attempts, 1);
        }
        claimedIds.push(...claimed.map((delivery) => delivery.id));
      }
      assert.equal(claimedIds.length, queued.length);
      assert.equal(new Set(claimedIds).size, queued.length, 'no row claimed twice');
      assert.deepEqual(await db.one.webhooks.claimWebhookDeliveries(T0 + 60, T0 + 120, 10), [], 'leased rows wait for the lease to end');

      const [first, second, third] = claimedIds;
      await db.one.webhooks.finishWebhookDelivery(first!, { kind: 'delivered', at: T0 + 40 });
      await db.two.webhooks.finishWebhookDelivery(second!, { kind: 'retry', nextAttemptAt: T0 + 100, error: 'HTTP 500' });
      await db.one.webhooks.finishWebhookDelivery(third!, { kind: 'failed', at: T0 + 41, error: 'gave up' });
      const status = new Map((await db.two.webhooks.listWebhookDeliveries(primaryProfile.id)).map((row) => [row.id, row]));
      assert.equal(status.get(first!)!.deliveredAt, T0 + 40);
      assert.equal(status.get(second!)!.nextAttemptAt, T0 + 100);
      assert.equal(status.get(second!)!.lastError, 'HTTP 500');
      assert.equal(status.get(third!)!.failedAt, T0 + 41);

      // Once the registration is gone, a due row is marked failed instead of being delivered (once the leases taken
      // above have run out: job leases run on real time).
      await new Promise((resolve) => setTimeout(resolve, LEASE_MS + 100));
      assert.equal(await db.one.webhooks.deleteWebhook(primaryProfile.id, 'social'), true);
      assert.equal(await db.two.webhooks.deleteWebhook(primaryProfile.id, 'social'), false);
      assert.deepEqual(await db.two.webhooks.claimWebhookDeliveries(T0 + 200, T0 + 260, 10), []);
      const afterDelete = (await db.one.webhooks.listWebhookDeliveries(primaryProfile.id)).filter((row) => row.deliveredAt === null);
      assert.ok(afterDelete.every((row) => row.failedAt !== null));
    });

    it('legacy stand-in sessions: one row for concurrent first uses, invisible to the API, revoked by the integration reset', async () => {
      const { account, primaryProfile } = await newAccount();
      const legacy = newSession(account.id, primaryProfile.id);
      const [a, b] = await Promise.all([
        db.one.linking.findOrCreateLegacyLinkSession(legacy),
        db.two.linking.findOrCreateLegacyLinkSession({ ...legacy, id: newId('ls_') }),
      ]);
      assert.equal(a.id, b.id);
      assert.equal(a.legacy, true);
      assert.equal(await db.one.linking.findLinkSession(account.id, a.id), null);
      assert.equal(await db.one.linking.revokeLinkSession(account.id, a.id, T0), null);
      assert.equal((await db.two.linking.findLinkSessionById(a.id))!.revokedAt, null);

      const key: IntegrationKey = {
        accountId: account.id,
        kind: 'integrator',
        algorithm: 'ES256',
        publicJwk: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y' },
        sealedPrivateKey: null,
        createdAt: T0,
      };
      await db.one.integrationKeys.putIntegrationKey(key);
      assert.deepEqual(await db.two.integrationKeys.findIntegrationKey(account.id, 'integrator'), key);
      const service: IntegrationKey = { ...key, kind: 'service', sealedPrivateKey: 'v1.sealed' };
      const raced = await Promise.all([db.one.integrationKeys.addIntegrationKeyIfMissing(service), db.two.integrationKeys.addIntegrationKeyIfMissing({ ...service, createdAt: T0 + 1 })]);
      assert.deepEqual(raced[0], raced[1], 'both see the key in effect');
      assert.deepEqual((await db.one.integrationKeys.findIntegrationKey(account.id, 'service'))!.sealedPrivateKey, 'v1.sealed');

      const api = newSession(account.id, primaryProfile.id);
      await db.one.linking.createLinkSession(api);
      await db.two.integrationKeys.resetIntegrationKeys(account.id, T0 + 5);
      assert.equal(await db.one.integrationKeys.findIntegrationKey(account.id, 'integrator'), null);
      assert.equal(await db.one.integrationKeys.findIntegrationKey(account.id, 'service'), null);
      assert.equal((await db.one.linking.findLinkSessionById(a.id))!.revokedAt, T0 + 5);
      assert.equal((await db.one.linking.findLinkSessionById(api.id))!.revokedAt, null, 'API sessions are untouched');
    });
  });
}
