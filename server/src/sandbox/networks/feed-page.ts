/**
 * @module
 * What the sandbox networks "published", as server-rendered HTML:
 * - `GET /sandbox/feed?key=<feed key>`: every sandbox post of the profile's linked accounts, newest first, with the
 *   text as the network got it (Unicode styling included), media, comments (bluesky replies too) and status;
 * - one post: `/sandbox/net/{platform}/p/{id}`, `/sandbox/profile/{did}/post/{rkey}`, `/sandbox/telegram/c/{chat}/{id}`
 *   (the `postUrl`s the sandbox hands out).
 * Everything is escaped; the CSP allows no script at all. A feed address is handed out by the API
 * (`GET /api/sandbox/feed-url`, accounts-route.ts) for one profile: its key is a secret, like the link URL's token.
 */
import { Hono, type Context } from 'hono';
import { NETWORK_LABELS, isNetwork } from '@social-link-kit/protocol';
import type { AppDeps } from '../../app-deps.js';
import type { AppEnv } from '../../context.js';
import { checkSandboxToken, issueSandboxToken, sandboxStoreOf } from './sandbox-tokens.js';
import type { Storage } from '../../storage/storage.js';
import { effectiveStatus, type SandboxComment, type SandboxMedia, type SandboxPost } from './store.js';
import { youtubePrivacyOf } from './engagement-store.js';

/** The sandbox token "network" of feed keys. */
const FEED = 'feed';
const FEED_KEY_TTL_MS = 30 * 24 * 60 * 60_000;

/** A fresh feed address for the profile (valid 30 days of the service clock). */
export async function sandboxFeedUrl(storage: Storage, publicUrl: string, profileRefId: string, now: number): Promise<string> {
  const key = await issueSandboxToken(sandboxStoreOf(storage), { platform: FEED, accountId: profileRefId, kind: 'feed', ttlMs: FEED_KEY_TTL_MS }, now);
  return `${publicUrl}/sandbox/feed?key=${encodeURIComponent(key)}`;
}

const HEADERS = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self' https: http:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

const CSS = `body{font-family:system-ui,sans-serif;background:#f6f7fb;color:#1d2433;margin:0;padding:1.5rem}main{max-width:40rem;margin:auto}
.banner{background:#ffe08a;border:2px dashed #b58900;border-radius:.5rem;padding:.75rem;font-weight:600}
article{background:#fff;border:1px solid #d8dce8;border-radius:.6rem;padding:1rem;margin:1rem 0}
header{display:flex;gap:.6rem;align-items:baseline;flex-wrap:wrap}.platform{font-weight:700}.time{color:#5b6478;font-size:.85rem}
.status{border-radius:1rem;padding:.1rem .6rem;font-size:.8rem;background:#e4f5e9;color:#17622f}.status.processing{background:#fff4d6;color:#7a5700}
.status.failed,.status.deleted{background:#fde4e4;color:#8a1c1c}.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.6rem 0}
.media{display:flex;flex-wrap:wrap;gap:.5rem}.media img{max-width:12rem;max-height:12rem;border-radius:.4rem;border:1px solid #d8dce8}
.comments{border-top:1px solid #eceef4;margin-top:.6rem;padding-top:.4rem}.comments p{white-space:pre-wrap;margin:.3rem 0}.empty{color:#5b6478}`;

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

function safeUrl(url: string): string | null {
  if (url.startsWith('/sandbox/')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function renderMedia(media: SandboxMedia[]): string {
  if (media.length === 0) return '';
  const items = media.map((item) => {
    const url = safeUrl(item.url);
    if (!url) return `<span>${escapeHtml(item.url)}</span>`;
    return item.kind === 'video' ? `<a href="${escapeHtml(url)}">video: ${escapeHtml(url)}</a>` : `<a href="${escapeHtml(url)}"><img src="${escapeHtml(url)}" alt="image"></a>`;
  });
  return `<div class="media">${items.join('')}</div>`;
}

function renderPost(post: SandboxPost, comments: { text: string; media: SandboxMedia[] }[], now: number): string {
  const status = post.deletedAt !== null ? 'deleted' : effectiveStatus(post, now);
  const label = isNetwork(post.platform) ? NETWORK_LABELS[post.platform] : post.platform;
  const renderedComments =
    comments.length === 0
      ? ''
      : `<section class="comments" aria-label="Comments">${comments.map((comment) => `<p>💬 ${escapeHtml(comment.text)}</p>${renderMedia(comment.media)}`).join('')}</section>`;
  return `<article><header><span class="platform">${escapeHtml(label)}</span><span class="status ${status}">${status}</span>
<time class="time" datetime="${new Date(post.createdAt).toISOString()}">${new Date(post.createdAt).toISOString()}</time>
<span class="time">id ${escapeHtml(post.networkId)}</span></header>
<div class="text">${escapeHtml(post.text)}</div>${renderMedia(post.media)}${post.error && status === 'failed' ? `<p>${escapeHtml(post.error)}</p>` : ''}${renderedComments}</article>`;
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="stylesheet" href="/sandbox/feed.css"></head>
<body><main><p class="banner" role="note">Sandbox networks: nothing here was published on a real network.</p>
<h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** Posts with their comments; bluesky replies to a listed post are shown as its comments. */
function renderPosts(posts: SandboxPost[], comments: SandboxComment[], now: number): string {
  const byUri = new Map(posts.filter((post) => typeof post.record?.uri === 'string').map((post) => [post.record!.uri as string, post]));
  const replyParent = (post: SandboxPost) => {
    const uri = ((post.record?.value as { reply?: { parent?: { uri?: unknown } } } | undefined)?.reply?.parent?.uri) as string | undefined;
    return uri ? byUri.get(uri) : undefined;
  };
  const commentsOf = new Map<string, { text: string; media: SandboxMedia[] }[]>();
  for (const comment of comments) commentsOf.set(comment.postId, [...(commentsOf.get(comment.postId) ?? []), comment]);
  const topLevel: SandboxPost[] = [];
  for (const post of [...posts].reverse()) {
    const parent = replyParent(post);
    if (parent) commentsOf.set(parent.id, [...(commentsOf.get(parent.id) ?? []), post]);
    else topLevel.unshift(post);
  }
  if (topLevel.length === 0) return '<p class="empty">Nothing published yet.</p>';
  return topLevel.map((post) => renderPost(post, commentsOf.get(post.id) ?? [], now)).join('\n');
}

export function sandboxFeedRoutes(deps: AppDeps): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const store = () => sandboxStoreOf(deps.storage);
  const html = (c: Context<AppEnv>, body: string, status: 200 | 404 = 200) => c.html(body, status, HEADERS);

  routes.get('/feed.css', (c) => c.body(CSS, 200, { 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-store' }));

  routes.get('/feed', async (c) => {
    const key = await checkSandboxToken(store(), c.req.query('key') ?? null, FEED, 'feed', deps.clock());
    const profile = key.ok ? await deps.storage.accounts.findProfileByRefId(key.accountId) : null;
    if (!profile) return html(c, page('Sandbox feed', '<p class="empty">This feed address is not valid or has expired: ask the API for a new one (GET /api/sandbox/feed-url).</p>'), 404);
    const accounts = (await deps.storage.linking.listSocialAccounts(profile.id)).map((account) => ({ platform: account.platform, accountId: account.networkUserId }));
    const posts = await store().listForAccounts(accounts);
    const comments = await store().listComments(posts.map((post) => post.id));
    return html(c, page(`Sandbox feed: ${profile.title}`, renderPosts(posts, comments, deps.clock())));
  });

  const onePost = async (c: Context<AppEnv>, post: SandboxPost | null) => {
    if (!post) return html(c, page('Sandbox post', '<p class="empty">No such post.</p>'), 404);
    const comments = await store().listComments([post.id]);
    return html(c, page('Sandbox post', renderPost(post, comments, deps.clock())));
  };
  // A post's page is public, as a network's post page is; a private youtube video is "unavailable" to a browser.
  routes.get('/net/:platform/p/:id', async (c) => {
    const post = await store().findByPlatformId(c.req.param('platform'), c.req.param('id'));
    return onePost(c, post?.platform === 'youtube' && youtubePrivacyOf(post) === 'private' ? null : post);
  });
  routes.get('/profile/:did/post/:rkey', async (c) =>
    onePost(c, await store().findByNetworkId('bluesky', c.req.param('did'), `app.bsky.feed.post/${c.req.param('rkey')}`)),
  );
  routes.get('/telegram/c/:chat/:id', async (c) => onePost(c, await store().findByNetworkId('telegram', c.req.param('chat'), c.req.param('id'))));

  return routes;
}
