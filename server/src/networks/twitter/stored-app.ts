/**
 * @module
 * The X developer app a profile's analytics and comment reads sign with: the one its newest twitter post was
 * published through (sealed with that post, app-credentials.ts). Reads have no request of their own to carry the
 * app (the snapshot job, comment listings), and the app that published a tweet can always read it.
 */
import type { SqlDriver } from '../../core/db/sql-driver.js';
import type { TokenCipher } from '../../core/crypto/token-cipher.js';
import { openTwitterApp, TWITTER_APP_FIELD, type TwitterAppCredentials } from './app-credentials.js';

export async function latestTwitterAppOf(db: SqlDriver, cipher: TokenCipher, profileId: string): Promise<TwitterAppCredentials | null> {
  const rows = await db.all(
    `SELECT p.request FROM posts p JOIN post_platforms pp ON pp.post_id = p.id
     WHERE p.profile_id = ? AND pp.platform = 'twitter' ORDER BY p.created_at DESC LIMIT 20`,
    [profileId],
  );
  for (const row of rows) {
    const request = JSON.parse(row.request as string) as Record<string, unknown>;
    const app = openTwitterApp(cipher, profileId, request[TWITTER_APP_FIELD]);
    if (app) return app;
  }
  return null;
}
