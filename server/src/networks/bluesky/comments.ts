/**
 * @module
 * The replies under a bluesky post, read with the AppView's `app.bsky.feed.getPostThread` (public: no session
 * needed), depth 1: the direct replies, as comments. A post id is its at:// URI (what the adapter's commit returns).
 */
import type { NetworkComment, NetworkContext } from '../analytics-contract.js';
import type { PublishFailure } from '../publish-adapter.js';
import { xrpc } from './xrpc.js';

interface ThreadPost {
  uri: string;
  author: { handle?: string; did: string };
  record: { text?: string; createdAt?: string };
}

export async function blueskyComments(ctx: NetworkContext, networkPostId: string): Promise<NetworkComment[] | PublishFailure> {
  const uri = networkPostId.startsWith('at://') ? networkPostId : `at://${ctx.account.accountId}/app.bsky.feed.post/${networkPostId.split('/').pop() ?? ''}`;
  const answer = await xrpc(ctx, 'app.bsky.feed.getPostThread', { method: 'GET', query: { uri, depth: '1', parentHeight: '0' } });
  if (answer.status !== 200) {
    const notFound = answer.error === 'NotFound';
    return { kind: 'failed', code: notFound ? 186 : 500, message: notFound ? 'The post is not on bluesky.' : `bluesky answered HTTP ${answer.status}.`, retryAvailable: !notFound, relink: false };
  }
  const replies = ((answer.json.thread as { replies?: { post?: ThreadPost }[] } | undefined)?.replies ?? []).flatMap((reply) => (reply.post ? [reply.post] : []));
  return replies.map((post) => ({
    id: post.uri,
    text: post.record.text ?? '',
    author: post.author.handle ?? post.author.did,
    created: post.record.createdAt ?? '',
    replyTo: null,
  }));
}
