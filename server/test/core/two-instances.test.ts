import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freshDatabase, type FreshDatabase } from '../support/fresh-database.js';
import { createLinkClient } from '../../../src/client/index.js';
import { NETWORKS } from '@social-link-kit/protocol';
import { createAccount } from '../../src/accounts/service.js';
import { readConfig } from '../../src/config.js';
import { startService, type RunningService } from '../../src/server.js';
import { PostgresStorage } from '../../src/storage/postgres.js';
import { linkAccount } from '../../src/linking/service.js';

const server = process.env.TEST_DATABASE_URL;

/** Two service instances on one PostgreSQL database, as behind a load balancer. Runs with scripts/with-postgres.sh. */
describe('two service instances on one PostgreSQL database', { skip: server ? false : 'needs TEST_DATABASE_URL (scripts/with-postgres.sh)' }, () => {
  let database: FreshDatabase;
  const dirs: string[] = [];
  let url = '';
  let one: RunningService;
  let two: RunningService;
  let apiKey = '';

  before(async () => {
    database = await freshDatabase('slk_two');
    url = database.url;
    // Both instances start together: the advisory lock lets exactly one apply each migration.
    const storages = [new PostgresStorage(url), new PostgresStorage(url)];
    await Promise.all(storages.map((storage) => storage.migrate()));
    ({ apiKey } = await createAccount(storages[0]!, Date.now));
    const start = (storage: PostgresStorage) => {
      const dir = mkdtempSync(join(tmpdir(), 'slk-two-'));
      dirs.push(dir);
      return startService({ config: readConfig({ DATA_DIR: dir, PORT: '0', DATABASE_URL: url }), storage });
    };
    const started = await Promise.all(storages.map(start));
    one = started[0]!;
    two = started[1]!;
  });
  after(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('a session created on one instance is read, completed and revoked on the other', async () => {
    const clientOne = createLinkClient({ baseUrl: `${one.url}/api`, apiKey });
    const clientTwo = createLinkClient({ baseUrl: `${two.url}/api`, apiKey });
    const created = await clientOne.createLinkSession({ expiresIn: 10 });
    assert.equal((await clientTwo.getLinkSession(created.sessionId)).state, 'active');

    const token = new URL(created.url).searchParams.get('session')!;
    const view = await fetch(`${two.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(view.status, 200);

    const session = (await two.storage.linking.findLinkSessionById(created.sessionId))!;
    const profileId = session.profileId;
    const account = (platform: (typeof NETWORKS)[number], who: string) => ({
      profileId, platform, networkUserId: `${who}-${platform}`, displayName: who, username: null, tokensEncrypted: null, linkedAt: Date.now(),
    });
    // Every network completed at once, half through each instance, twice over: nothing may be lost.
    const results = await Promise.all(
      [...NETWORKS, ...NETWORKS].map((platform, index) =>
        linkAccount((index % 2 === 0 ? one : two).storage, created.sessionId, account(platform, index % 2 === 0 ? 'one' : 'two'), Date.now()),
      ),
    );
    assert.ok(results.every((result) => result.stored));
    const read = await clientOne.getLinkSession(created.sessionId);
    assert.deepEqual([...read.completedNetworks].sort(), [...NETWORKS].sort());
    assert.ok(read.completedAt && read.lastCompletedAt);

    await clientTwo.revokeLinkSession(created.sessionId);
    assert.equal((await clientOne.getLinkSession(created.sessionId)).state, 'revoked');
    assert.deepEqual(await linkAccount(one.storage, created.sessionId, account('twitter', 'late'), Date.now()), { stored: false, reason: 'revoked' });
    const after = await fetch(`${one.url}/api/link/session`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(after.status, 401);
  });

  it('a revoke racing completions leaves no completion after the revoke', async () => {
    const clientOne = createLinkClient({ baseUrl: `${one.url}/api`, apiKey });
    const clientTwo = createLinkClient({ baseUrl: `${two.url}/api`, apiKey });
    const created = await clientOne.createLinkSession();
    const profileId = (await one.storage.linking.findLinkSessionById(created.sessionId))!.profileId;
    const completions = NETWORKS.map((platform, index) =>
      linkAccount((index % 2 ? one : two).storage, 
        created.sessionId,
        { profileId, platform, networkUserId: platform, displayName: null, username: null, tokensEncrypted: null, linkedAt: Date.now() },
        Date.now(),
      ),
    );
    const revoked = await clientTwo.revokeLinkSession(created.sessionId);
    await Promise.all(completions);
    const read = await clientOne.getLinkSession(created.sessionId);
    if (read.lastCompletedAt) assert.ok(Date.parse(read.lastCompletedAt) <= Date.parse(revoked.revokedAt), 'a completion was stored after the revoke');
  });
});
