/**
 * @module
 * The bluesky AppView read the service needs for comments, on the sandbox: `GET /xrpc/app.bsky.feed.getPostThread
 * ?uri=` → `{thread: {$type, post, replies: [{$type, post, replies: []}]}}`, the direct replies of a post (records
 * whose `reply.parent.uri` is it), oldest first. Public, like the AppView's: no session needed. Unknown post:
 * 400 `NotFound`.
 */
import { Hono } from 'hono';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxPost } from './store.js';

const THREAD_VIEW = 'app.bsky.feed.defs#threadViewPost';

function postView(post: SandboxPost) {
  const record = post.record as { uri: string; cid: string; value: Record<string, unknown> };
  return { uri: record.uri, cid: record.cid, author: { did: post.accountId, handle: post.accountId }, record: record.value, indexedAt: new Date(post.createdAt).toISOString() };
}

export function sandboxBlueskyAppViewRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();

  routes.get('/xrpc/app.bsky.feed.getPostThread', async (c) => {
    const uri = c.req.query('uri') ?? '';
    const match = /^at:\/\/([^/]{1,256})\/(app\.bsky\.feed\.post\/[A-Za-z0-9._:~-]{1,512})$/.exec(uri);
    if (!match) return c.json({ error: 'InvalidRequest', message: 'uri must be an at:// post URI' }, 400);
    const store = sandboxStoreOf(deps.storage);
    const post = await store.findByNetworkId('bluesky', match[1]!, match[2]!);
    if (!post?.record) return c.json({ error: 'NotFound', message: `Post not found: ${uri}` }, 400);
    // Candidates mention the URI somewhere in their record; the exact parent check is below.
    const rows = await deps.storage.driver.all(
      "SELECT account_id, network_id FROM sandbox_posts WHERE platform = 'bluesky' AND deleted_at IS NULL AND record LIKE ? ESCAPE '\\' ORDER BY created_at, id",
      [`%${uri.replace(/[%_\\]/g, (char) => `\\${char}`)}%`],
    );
    const replies: SandboxPost[] = [];
    for (const row of rows) {
      const candidate = await store.findByNetworkId('bluesky', row.account_id as string, row.network_id as string);
      const parent = (candidate?.record?.value as { reply?: { parent?: { uri?: string } } } | undefined)?.reply?.parent?.uri;
      if (candidate && parent === uri) replies.push(candidate);
    }
    return c.json({ thread: { $type: THREAD_VIEW, post: postView(post), replies: replies.map((reply) => ({ $type: THREAD_VIEW, post: postView(reply), replies: [] })) } });
  });

  return routes;
}
