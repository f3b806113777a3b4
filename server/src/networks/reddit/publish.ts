/**
 * @module
 * The reddit publishing adapter: `POST /api/submit` on reddit's OAuth API (`ctx.baseUrl`: the sandbox on loopback,
 * or oauth.reddit.com) with the member's bearer token and a unique User-Agent (reddit-api.ts).
 * `redditOptions`: `title` (required, 1-300 characters), `subreddit` (required, without `r/`), `link` (a URL: a link
 * post instead of a text post), `flairId`, `flairText`, `nsfw`, `spoiler`. The post text is the self text in reddit
 * markdown (the service already maps rich text to markdown for reddit). One image URL without `link` is uploaded
 * through reddit's media lease and posted as an image post (media-lease.ts); other media become a link post to it.
 * - commit: `POST /api/submit {sr, kind: self|link, title, text|url, resubmit, api_type=json}` →
 *   `json.data {id, name, url}`, or `json.errors` (442 banned, 443 title word, RATELIMIT; classify.ts).
 * - reconcile: the user's submissions (`GET /user/{name}/submitted`, paged by `after` back to the commit's start) with the
 *   same subreddit, title and body or URL (reconcile-by-identity.ts).
 * - remove: `POST /api/del {id: t3_…}`; comment: `POST /api/comment {thing_id, text}`.
 */
import type { CommitResult, PlatformPost, PreparedState, PublishAdapter, PublishContext, PublishFailure } from '../publish-adapter.js';
import { confirmStoredResult } from '../confirm-stored-result.js';
import { classifyRedditError } from './classify.js';
import { callReddit, redditErrors } from './reddit-api.js';
import { oauth2RefreshGrant } from '../oauth/refresh-grant.js';
import { uploadRedditImage } from './media-lease.js';
import { findByIdentity } from '../reconcile-by-identity.js';
import { accessTokenOf as tokenOf, failure, isFailure } from '../kit.js';

export const REDDIT_TITLE_MAX = 300;
export const REDDIT_TEXT_MAX = 40_000;
const SUBREDDIT = /^[A-Za-z0-9][A-Za-z0-9_]{1,20}$/;

interface RedditPrepared extends PreparedState {
  form: Record<string, string>;
}


function optionsOf(post: PlatformPost): Record<string, unknown> {
  const options = post.options;
  const subreddit = typeof options.subreddit === 'string' ? options.subreddit.replace(/^\/?r\//i, '') : options.subreddit;
  return { ...options, subreddit };
}

function validateReddit(post: PlatformPost): PublishFailure[] {
  const issues: PublishFailure[] = [];
  const options = optionsOf(post);
  if (typeof options.title !== 'string' || options.title.trim() === '') issues.push(failure(101, 'reddit needs redditOptions.title.'));
  else if ([...options.title].length > REDDIT_TITLE_MAX) issues.push(failure(101, `reddit titles are at most ${REDDIT_TITLE_MAX} characters.`));
  if (typeof options.subreddit !== 'string' || !SUBREDDIT.test(options.subreddit)) issues.push(failure(101, 'reddit needs redditOptions.subreddit, a community name such as "test".'));
  if (options.link !== undefined && (typeof options.link !== 'string' || !/^https?:\/\/\S+$/.test(options.link))) issues.push(failure(101, 'redditOptions.link must be an http(s) URL.'));
  for (const key of ['flairId', 'flairText']) if (options[key] !== undefined && typeof options[key] !== 'string') issues.push(failure(101, `redditOptions.${key} must be a string.`));
  for (const key of ['nsfw', 'spoiler']) if (options[key] !== undefined && typeof options[key] !== 'boolean') issues.push(failure(101, `redditOptions.${key} must be true or false.`));
  if (post.text.length > REDDIT_TEXT_MAX) issues.push(failure(101, `reddit self text is at most ${REDDIT_TEXT_MAX} characters.`));
  if (post.mediaUrls.length > 1) issues.push(failure(164, 'reddit takes one media URL per post here.'));
  return issues;
}

const postUrlOf = (ctx: PublishContext, subreddit: string, id: string) =>
  ctx.account.sandbox ? `${ctx.baseUrl.replace(/\/+$/, '')}/r/${subreddit}/comments/${id}/` : `https://www.reddit.com/r/${subreddit}/comments/${id}/`;

export const redditPublishAdapter: PublishAdapter = {
  platform: 'reddit',
  // Access tokens expire: renewed with the OAuth 2.0 refresh grant (token-refresher.ts decides when).
  refresh: oauth2RefreshGrant,

  validate: (post) => validateReddit(post),

  async prepare(ctx, previous) {
    const issues = validateReddit(ctx.post);
    if (issues.length > 0) return issues[0]!;
    if (previous && previous.form) return previous;
    const options = optionsOf(ctx.post);
    let url = typeof options.link === 'string' ? options.link : ctx.post.mediaUrls[0];
    let kind = url ? 'link' : 'self';
    if (typeof options.link !== 'string' && url) {
      // An image goes up through reddit's media lease and becomes an image post (media-lease.ts).
      const token = await tokenOf(ctx);
      if (isFailure(token)) return token;
      const uploaded = await uploadRedditImage(ctx, token, url);
      if (isFailure(uploaded)) return uploaded;
      if (uploaded) [url, kind] = [uploaded.url, 'image'];
    }
    const form: Record<string, string> = {
      sr: options.subreddit as string,
      title: options.title as string,
      kind,
      ...(url ? { url } : { text: ctx.post.text }),
      resubmit: 'true',
      sendreplies: 'true',
      ...(typeof options.flairId === 'string' && { flair_id: options.flairId }),
      ...(typeof options.flairText === 'string' && { flair_text: options.flairText }),
      ...(options.nsfw === true && { nsfw: 'true' }),
      ...(options.spoiler === true && { spoiler: 'true' }),
    };
    const prepared: RedditPrepared = { form };
    return prepared;
  },

  async commit(ctx, state): Promise<CommitResult> {
    const { form } = state as RedditPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callReddit(ctx, token, 'POST', '/api/submit', form);
    const data = (answer.json.json as { data?: { id?: unknown; name?: unknown } } | undefined)?.data;
    if (answer.status === 200 && redditErrors(answer).length === 0 && typeof data?.id === 'string') {
      return { kind: 'done', id: typeof data.name === 'string' ? data.name : `t3_${data.id}`, postUrl: postUrlOf(ctx, form.sr!, data.id) };
    }
    return classifyRedditError(answer);
  },

  confirm: confirmStoredResult('reddit'),

  async reconcile(ctx, state) {
    const { form } = state as RedditPrepared;
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const name = ctx.account.username ?? ctx.account.accountId;
    const found = await findByIdentity(
      ctx,
      async (after) => {
        const answer = await callReddit(ctx, token, 'GET', `/user/${encodeURIComponent(name)}/submitted?limit=100&sort=new&raw_json=1${after ? `&after=${encodeURIComponent(after)}` : ''}`);
        if (answer.status !== 200) return classifyRedditError(answer);
        const data = answer.json.data as { after?: unknown; children?: { data?: Record<string, unknown> }[] } | undefined;
        return { items: (data?.children ?? []).map((child) => child.data ?? {}), next: typeof data?.after === 'string' ? data.after : null };
      },
      (post) =>
        typeof post.id !== 'string'
          ? null
          : {
              id: typeof post.name === 'string' ? post.name : `t3_${post.id}`,
              createdAt: Number(post.created_utc) * 1000,
              // The whole submission, not its title: another post may share a title (issue 30, case 3).
              matches:
                post.title === form.title &&
                String(post.subreddit).toLowerCase() === form.sr!.toLowerCase() &&
                (form.text !== undefined ? (post.selftext ?? '') === form.text : post.url === form.url),
            },
    );
    if (found === null || isFailure(found)) return found;
    return { kind: 'done', id: found.id, postUrl: postUrlOf(ctx, form.sr!, String(found.item.id)) };
  },

  async remove(ctx, networkPostId) {
    const token = await tokenOf(ctx);
    if (isFailure(token)) return false;
    const answer = await callReddit(ctx, token, 'POST', '/api/del', { id: networkPostId.startsWith('t3_') ? networkPostId : `t3_${networkPostId}` });
    return answer.status === 200;
  },

  async comment(ctx, networkPostId, text) {
    const token = await tokenOf(ctx);
    if (isFailure(token)) return token;
    const answer = await callReddit(ctx, token, 'POST', '/api/comment', { thing_id: networkPostId, text });
    const things = (answer.json.json as { data?: { things?: { data?: { id?: unknown; permalink?: unknown } }[] } } | undefined)?.data?.things ?? [];
    const id = things[0]?.data?.id;
    if (answer.status === 200 && redditErrors(answer).length === 0 && typeof id === 'string') return { kind: 'done', id, postUrl: '' };
    return classifyRedditError(answer);
  },
};
