/**
 * @module
 * The snapchat publishing adapter: Public Profile stories through the Snap Public Profile API (snap-api.ts; partner
 * allowlist on the real network). One image or video per post, never text alone.
 * - validate: exactly one media; `snapchatOptions.type` `story` (default), `saved_story` (the text is its title,
 *   ≤45 characters) or `spotlight` (video only; the text is its description); no other options.
 * - prepare: the user's public profile (`GET /v1/me/public_profile`), the media downloaded, encrypted with AES-256-CBC
 *   under a fresh key (media-encryption.ts), a media container made (`POST /v1/public_profiles/{id}/media {type,
 *   name, key, iv}` → `media_id`, `add_path`, `finalize_path`), the parts added (`action=ADD`, 32 MB each) and
 *   finalized. Containers live 24 h; the media id is kept with the attempt, so a resumed attempt does not upload again.
 * - commit: `POST /v1/public_profiles/{id}/stories {media_id}` (or `saved_stories`, `spotlights`) → the new id.
 * - reconcile: the profile's stories (or saved stories, spotlights) holding the prepared media id: a media container
 *   is used once, so it identifies the post exactly.
 * No delete (stories expire after 24 h; the capability table says snapchat cannot delete) and no comments.
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishDone, PublishFailure } from '../publish-adapter.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { classifySnapError } from './classify.js';
import { encryptForSnap } from './media-encryption.js';
import { callSnap, snapOk, snapUrl } from './snap-api.js';
import { accessTokenOf as tokenOf, failure, isFailure } from '../kit.js';

export const SNAP_SAVED_STORY_TITLE_MAX = 45;
export const SNAP_KINDS = { story: 'stories', saved_story: 'saved_stories', spotlight: 'spotlights' } as const;
type SnapKind = keyof typeof SNAP_KINDS;

interface SnapPrepared extends PreparedState {
  profileId: string;
  mediaId: string;
  kind: SnapKind;
  text: string;
}

const VIDEO_URL = /\.(mp4|mov|m4v)(\?|#|$)/i;
const isVideoPost = (post: PlatformPost) => post.isVideo || post.mediaUrls.some((url) => VIDEO_URL.test(url));
const kindOf = (post: PlatformPost): SnapKind => (typeof post.options.type === 'string' && post.options.type in SNAP_KINDS ? (post.options.type as SnapKind) : 'story');

function validateSnapchat(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  if (post.mediaUrls.length !== 1) issues.push(failure(164, 'snapchat posts take exactly one image or video (no text-only posts, no albums).'));
  const unknown = Object.keys(post.options).filter((key) => key !== 'type');
  if (unknown.length > 0) issues.push(failure(101, `Unknown snapchatOptions field(s): ${unknown.join(', ')}.`, { details: { platform: 'snapchat', field: 'snapchatOptions' } }));
  const type = post.options.type;
  if (type !== undefined && !(typeof type === 'string' && type in SNAP_KINDS)) {
    issues.push(failure(101, `snapchatOptions.type must be one of ${Object.keys(SNAP_KINDS).join(', ')}.`, { details: { platform: 'snapchat', field: 'snapchatOptions.type' } }));
  }
  const kind = kindOf(post);
  if (kind === 'spotlight' && !isVideoPost(post)) issues.push(failure(164, 'A snapchat spotlight is a video.', { details: { platform: 'snapchat', field: 'snapchatOptions.type' } }));
  if (kind === 'saved_story' && [...post.text].length > SNAP_SAVED_STORY_TITLE_MAX) {
    issues.push(failure(101, `A snapchat saved story's title (the text) is at most ${SNAP_SAVED_STORY_TITLE_MAX} characters.`, { details: { platform: 'snapchat', field: 'post' } }));
  }
  return issues;
}

async function download(ctx: PublishContext, url: string): Promise<{ bytes: Uint8Array; type: 'IMAGE' | 'VIDEO' } | PublishFailure> {
  try {
    const response = await ctx.fetch(url);
    if (!response.ok) return failure(164, `The media ${url} could not be read (HTTP ${response.status}).`, { retryAvailable: response.status >= 500 });
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!/^(image\/(jpeg|png)|video\/(mp4|quicktime))$/.test(contentType)) return failure(164, `snapchat takes JPEG, PNG or MP4 media; ${url} is ${contentType || 'of no known type'}.`);
    return { bytes: new Uint8Array(await response.arrayBuffer()), type: contentType.startsWith('video/') ? 'VIDEO' : 'IMAGE' };
  } catch (error) {
    return failure(164, `The media ${url} could not be read: ${error instanceof Error ? error.message : String(error)}`, { retryAvailable: true });
  }
}

/** The encrypted upload: container, parts, finalize. Returns the media id. */
async function uploadMedia(ctx: PublishContext, token: string, profileId: string, file: { bytes: Uint8Array; type: 'IMAGE' | 'VIDEO' }): Promise<string | PublishFailure> {
  const encrypted = encryptForSnap(file.bytes);
  // The name labels the media in the profile's library: the post's own text, cut short.
  const name = [...(ctx.post.text || ctx.post.postId)].slice(0, 100).join('');
  const created = await callSnap(ctx, token, 'POST', snapUrl(ctx, `/v1/public_profiles/${encodeURIComponent(profileId)}/media`), { json: { type: file.type, name, key: encrypted.key, iv: encrypted.iv } });
  const { media_id: mediaId, add_path: addPath, finalize_path: finalizePath } = created.json as Record<string, unknown>;
  if (!snapOk(created) || typeof mediaId !== 'string' || typeof addPath !== 'string' || typeof finalizePath !== 'string') return classifySnapError(created, 'media');
  for (const [index, part] of encrypted.parts.entries()) {
    const form = new FormData();
    form.set('action', 'ADD');
    form.set('part_number', String(index + 1));
    form.set('file', new Blob([new Uint8Array(part)]), `part-${index + 1}`);
    const added = await callSnap(ctx, token, 'POST', snapUrl(ctx, addPath), { form });
    if (!snapOk(added)) return classifySnapError(added, 'media');
  }
  const form = new FormData();
  form.set('action', 'FINALIZE');
  const finalized = await callSnap(ctx, token, 'POST', snapUrl(ctx, finalizePath), { form });
  if (!snapOk(finalized)) return classifySnapError(finalized, 'media');
  return mediaId;
}

function postUrlOf(ctx: PublishContext, id: string): string {
  if (ctx.account.sandbox) return snapUrl(ctx, `/p/${encodeURIComponent(id)}`);
  return ctx.account.username ? `https://www.snapchat.com/add/${encodeURIComponent(ctx.account.username)}` : 'https://www.snapchat.com/';
}

function bodyOf(prepared: SnapPrepared): unknown {
  if (prepared.kind === 'saved_story') return { saved_stories: [{ snap_sources: [{ media_id: prepared.mediaId }], title: prepared.text }] };
  if (prepared.kind === 'spotlight') return { media_id: prepared.mediaId, description: prepared.text, locale: 'en_US' };
  return { media_id: prepared.mediaId };
}

/** The entities of a Snap list or create answer: `{stories: [{story: {…}}]}` and the like. */
function entitiesOf(json: Record<string, unknown>, kind: SnapKind): Record<string, unknown>[] {
  const list = json[SNAP_KINDS[kind]];
  if (!Array.isArray(list)) return [];
  return list.map((entry) => (entry as Record<string, unknown>)[kind]).filter((entity): entity is Record<string, unknown> => typeof entity === 'object' && entity !== null);
}

export const snapchatPublishAdapter: PublishAdapter = {
  platform: 'snapchat',

  validate: (post) => validateSnapchat(post),

  async prepare(ctx, previous) {
    const issues = validateSnapchat(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && typeof previous.mediaId === 'string' && typeof previous.profileId === 'string') return previous;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const me = await callSnap(ctx, token, 'GET', snapUrl(ctx, '/v1/me/public_profile'));
    const profileId = (me.json.public_profile as { id?: unknown } | undefined)?.id;
    if (!snapOk(me)) return classifySnapError(me);
    if (typeof profileId !== 'string') return failure(101, 'This Snapchat account has no Public Profile; create one in the app, then publish again.');
    const file = await download(ctx, ctx.post.mediaUrls[0]!);
    if (isFailure(file)) return file;
    const mediaId = await uploadMedia(ctx, token, profileId, file);
    if (isFailure(mediaId)) return mediaId;
    const prepared: SnapPrepared = { profileId, mediaId, kind: kindOf(ctx.post), text: ctx.post.text };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const prepared = state as SnapPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callSnap(ctx, token, 'POST', snapUrl(ctx, `/v1/public_profiles/${encodeURIComponent(prepared.profileId)}/${SNAP_KINDS[prepared.kind]}`), { json: bodyOf(prepared) });
    if (!snapOk(answer)) return classifySnapError(answer);
    const id = entitiesOf(answer.json, prepared.kind)[0]?.id;
    if (typeof id !== 'string') return failure(500, 'snapchat accepted the post but sent no id; check the profile before retrying.', { details: { outcome: 'unknown' } });
    return { kind: 'done', id, postUrl: postUrlOf(ctx, id) };
  },

  confirm: confirmStoredResult('snapchat'),

  async reconcile(ctx, state): Promise<PublishDone | PublishFailure | null> {
    const prepared = state as SnapPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callSnap(ctx, token, 'GET', snapUrl(ctx, `/v1/public_profiles/${encodeURIComponent(prepared.profileId)}/${SNAP_KINDS[prepared.kind]}`));
    if (!snapOk(answer)) return classifySnapError(answer);
    const match = entitiesOf(answer.json, prepared.kind).find((entity) => entity.media_id === prepared.mediaId && typeof entity.id === 'string');
    return match ? { kind: 'done', id: match.id as string, postUrl: postUrlOf(ctx, match.id as string) } : null;
  },
};
