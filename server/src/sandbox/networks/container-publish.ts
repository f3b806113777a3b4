/**
 * @module
 * Publishing a Graph container (instagram `media_publish`, threads `threads_publish`) in ONE transaction, as the real
 * networks do it atomically (issue 30, case 6): the container is marked published (only if it was not, so two
 * concurrent publishes cannot both win), the post is made, and the container records the post's id. Made in two
 * writes, a kill between them left a published post beside an unpublished container, whose reconcile then led to a
 * duplicate. A test build may die between the writes (`PUBLISH_TEST_CRASH_AT=inside-container-publish`) to prove it.
 */
import type { AppDeps } from '../../app-deps.js';
import type { SqlExecutor } from '../../core/db/sql-driver.js';
import { SandboxNetworkStore, type SandboxPost } from './store.js';

export async function publishContainer(
  deps: AppDeps,
  container: SandboxPost,
  make: (store: SandboxNetworkStore, tx: SqlExecutor) => Promise<string | null>,
  published: (id: string) => Record<string, unknown>,
): Promise<string | null> {
  return deps.storage.driver.transaction(async (tx) => {
    const claimed = await tx.run(`UPDATE sandbox_posts SET status = 'published' WHERE id = ? AND status <> 'published'`, [container.id]);
    if (claimed !== 1) return null;
    const id = await make(new SandboxNetworkStore(tx), tx);
    if (id === null) throw new Error('sandbox container publish: the post could not be made');
    if (deps.config.publishing.testCrashAt === 'inside-container-publish') process.kill(process.pid, 'SIGKILL');
    await tx.run('UPDATE sandbox_posts SET record = ? WHERE id = ?', [JSON.stringify(published(id)), container.id]);
    return id;
  });
}
