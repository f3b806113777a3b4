/**
 * Tenants isolated in the sandbox (issue 24): two integrators (two accounts of the service, two API keys) each link
 * a sandbox account on every network; tenant A publishes, comments and opens uploads; then every sandbox route
 * that takes an id, and every public API route that passes a network post id on, is called as tenant B against A's
 * ids and must be refused in that network's own error shape, while the same call as A goes through (so a route
 * that refused everyone would fail here too). The routes are one table (ROUTES, SERVICE_ROUTES), so the list is
 * complete and readable. What stays public, as on the real networks, is checked as public: bluesky records and
 * threads, a public youtube video's snippet and comments, X conversations and public metrics, post pages.
 * telegram too: a sandbox link stores a bot token the sandbox issued for that one chat (on the real network the bot is
 * the operator's, one for the whole service), so B's bot token cannot send to or delete in A's chat.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Network } from '@social-link-kit/protocol';
import { NETWORKS } from '@social-link-kit/protocol';
import { createAccount } from '../../src/accounts/service.js';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import { oauth1Header } from '../../src/networks/twitter/oauth1.js';
import { SANDBOX_TWITTER_APP, sandboxTwitterTokenSecret } from '@social-link-kit/sandbox/networks/twitter-api.js';
import { SANDBOX_TWITTER_APP_HEADERS, type TestService } from '../support/test-service.js';
import { startPublishingService, waitForPost } from '../publishing/publishing-fixtures.js';

interface Tenant {
  name: 'A' | 'B';
  apiKey: string;
  /** The linked sandbox account of each network (its network user id). */
  acct: Record<Network, string>;
  tokens: Record<Network, Record<string, any>>;
}

interface Answer {
  status: number;
  body: any;
  headers: Headers;
}

/** One route tried as B (must be refused) and as A (must go through), against A's ids. */
interface RouteCase {
  name: string;
  call: (t: Tenant) => Promise<Answer>;
  /** B's answer is a refusal. Default: a 4xx status. */
  refused?: (answer: Answer) => boolean | Promise<boolean>;
  /** A's answer went through. Default: a 2xx status. */
  allowed?: (answer: Answer) => boolean | Promise<boolean>;
}

/** The names of tenant A's objects the routes are tried against. */
type IdName =
  'blueskyRkey' | 'facebook' | 'facebookComment' | 'facebookReel' | 'generic' | 'genericComment' | 'genericPublic' | 'gmb' | 'instagram'
  | 'instagramComment' | 'instagramComment2' | 'instagramContainer' | 'linkedin' | 'linkedinComment' | 'pin' | 'pinterestBoard'
  | 'pinterestMedia' | 'reddit' | 'servicePost' | 'serviceTweet' | 'serviceTweetComment' | 'snapMedia' | 'threads' | 'threadsComment'
  | 'threadsContainer' | 'tiktok' | 'tiktokPublish' | 'tweet' | 'tweetComment' | 'youtubeComment' | 'youtubePrivate' | 'youtubePublic'
  | 'youtubePublicComment' | 'youtubeSession' | 'telegram';

const VERSION = 'v21.0';
const LINKEDIN_HEADERS = { 'LinkedIn-Version': '202611', 'X-Restli-Protocol-Version': '2.0.0' };
const REDDIT_AGENT = { 'User-Agent': 'tenancy-test/1.0 by sandbox' };
const is4xx = (answer: Answer) => answer.status >= 400 && answer.status < 500;
const is2xx = (answer: Answer) => answer.status >= 200 && answer.status < 300;

describe('sandbox tenancy: a token opens only its own account, a post id is found only through its owner', () => {
  let svc: TestService;
  let A: Tenant;
  let B: Tenant;
  /** A's objects on every network, filled in `before`. */
  const ids = {} as Record<IdName, string>;

  async function send(method: string, path: string, init: { headers?: Record<string, string>; json?: unknown; form?: Record<string, string>; body?: Buffer | string } = {}): Promise<Answer> {
    const headers: Record<string, string> = { ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(`${svc.url}${path}`, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // Not JSON (a page, an empty 204): kept as text.
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  const bearer = (t: Tenant, platform: Network) => ({ Authorization: `Bearer ${platform === 'bluesky' ? t.tokens.bluesky.accessJwt : t.tokens[platform].accessToken}` });
  const apiKeyOf = (t: Tenant) => ({ Authorization: `Bearer ${t.apiKey}`, ...SANDBOX_TWITTER_APP_HEADERS });
  /** An X request signed with the tenant's OAuth 1.0a token. */
  const x = (t: Tenant, method: string, path: string, init: { json?: unknown } = {}) => {
    const url = `${svc.url}/sandbox/twitter${path}`;
    const credentials = { consumerKey: SANDBOX_TWITTER_APP.apiKey, consumerSecret: SANDBOX_TWITTER_APP.apiSecret, token: t.tokens.twitter.oauthToken, tokenSecret: t.tokens.twitter.oauthTokenSecret };
    return send(method, `/sandbox/twitter${path}`, { ...init, headers: { Authorization: oauth1Header(credentials, method, url, svc.clock()) } });
  };
  const li = (t: Tenant) => ({ ...bearer(t, 'linkedin'), ...LINKEDIN_HEADERS });
  /** A sandbox Bot API call with the bot token the tenant's telegram link stored. */
  const tg = (t: Tenant, method: string, json: unknown) => send('POST', `/sandbox/telegram/bot${t.tokens.telegram.botToken}/${method}`, { json });
  const chatNotFound = (a: Answer) => a.status === 400 && a.body.ok === false && a.body.description === 'Bad Request: chat not found';
  const gmbPath = (t: Tenant) => `/sandbox/gmb/mybusiness/v4/accounts/${t.acct.gmb.split('|')[0]}/locations/${t.acct.gmb.split('|')[1]}/localPosts`;

  async function tenant(name: 'A' | 'B', apiKey: string, profileId: string): Promise<Tenant> {
    const acct = {} as Record<Network, string>;
    const tokens = {} as Record<Network, Record<string, any>>;
    for (const platform of NETWORKS) {
      const linked = await send('POST', '/api/sandbox/accounts', { headers: { Authorization: `Bearer ${apiKey}` }, json: { platform } });
      assert.equal(linked.status, 200, JSON.stringify(linked.body));
      const stored = (await svc.storage.linking.findSocialAccount(profileId, platform))!;
      acct[platform] = stored.networkUserId;
      tokens[platform] = stored.tokensEncrypted ? JSON.parse(svc.tokenCipher.decrypt(stored.tokensEncrypted, tokenAad(profileId, platform, stored.networkUserId))) : {};
    }
    return { name, apiKey, acct, tokens };
  }

  /** Someone in A's audience comments under A's post (the test switch takes A's API key). */
  async function audienceComment(platform: Network, postId: string): Promise<string> {
    const answer = await send('POST', `/sandbox/net/${platform}/p/${encodeURIComponent(postId)}/audience-comments`, { headers: apiKeyOf(A), json: { author: 'visitor', text: `a comment on ${platform}` } });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.id as string;
  }

  async function youtubeUpload(t: Tenant, title: string, privacyStatus: string, complete: boolean): Promise<{ session: string; videoId: string | null }> {
    const opened = await send('POST', '/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', {
      headers: { ...bearer(t, 'youtube'), 'X-Upload-Content-Length': '16' },
      json: { snippet: { title, description: `${title} description` }, status: { privacyStatus } },
    });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const session = new URL(opened.headers.get('location')!).searchParams.get('upload_id')!;
    if (!complete) return { session, videoId: null };
    const done = await send('PUT', `/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=${session}`, { headers: bearer(t, 'youtube'), body: Buffer.alloc(16, 1) });
    assert.equal(done.status, 201, JSON.stringify(done.body));
    return { session, videoId: done.body.id as string };
  }

  before(async () => {
    svc = await startPublishingService();
    const other = await createAccount(svc.storage, svc.clock);
    A = await tenant('A', svc.apiKey, svc.primaryProfile.id);
    B = await tenant('B', other.apiKey, other.primaryProfile.id);
    for (const platform of NETWORKS) assert.notEqual(A.acct[platform], B.acct[platform], `${platform}: two tenants, two sandbox users`);

    // The generic API (here for youtube, the network it serves with the most routes): a private post and a public one.
    const generic = (options: Record<string, unknown>) =>
      send('POST', '/sandbox/net/youtube/posts', { headers: bearer(A, 'youtube'), json: { accountId: A.acct.youtube, text: `generic ${JSON.stringify(options)}`, clientKey: 'tenancy-key', options } });
    ids.generic = (await generic({ privacyStatus: 'private', title: 'A private generic title' })).body.id;
    ids.genericPublic = (await generic({ privacyStatus: 'public', title: 'A public generic title' })).body.id;
    ids.genericComment = await audienceComment('youtube', ids.generic);

    const created = await send('POST', '/sandbox/xrpc/com.atproto.repo.createRecord', {
      headers: bearer(A, 'bluesky'),
      json: { repo: A.acct.bluesky, collection: 'app.bsky.feed.post', record: { text: 'A on bluesky', createdAt: new Date(svc.clock()).toISOString() } },
    });
    ids.blueskyRkey = (created.body.uri as string).split('/').pop()!;

    ids.facebook = (await send('POST', `/sandbox/facebook/${VERSION}/${A.acct.facebook}/feed`, { headers: bearer(A, 'facebook'), json: { message: 'A on facebook' } })).body.id;
    ids.facebookComment = await audienceComment('facebook', ids.facebook);
    ids.facebookReel = (await send('POST', `/sandbox/facebook/${VERSION}/${A.acct.facebook}/video_reels`, { headers: bearer(A, 'facebook'), json: { upload_phase: 'start' } })).body.video_id;

    const container = async (t: Tenant) => (await send('POST', `/sandbox/instagram/${VERSION}/${t.acct.instagram}/media`, { headers: bearer(t, 'instagram'), json: { image_url: 'https://example.com/a.png', caption: 'A on instagram' } })).body.id as string;
    const published = await send('POST', `/sandbox/instagram/${VERSION}/${A.acct.instagram}/media_publish`, { headers: bearer(A, 'instagram'), json: { creation_id: await container(A) } });
    ids.instagram = published.body.id;
    ids.instagramContainer = await container(A);
    ids.instagramComment = await audienceComment('instagram', ids.instagram);
    // A second comment: a comment takes one private reply, and two routes send one.
    ids.instagramComment2 = await audienceComment('instagram', ids.instagram);

    const thread = async () => (await send('POST', `/sandbox/threads/${VERSION}/${A.acct.threads}/threads`, { headers: bearer(A, 'threads'), json: { media_type: 'TEXT', text: 'A on threads' } })).body.id as string;
    ids.threads = (await send('POST', `/sandbox/threads/${VERSION}/${A.acct.threads}/threads_publish`, { headers: bearer(A, 'threads'), json: { creation_id: await thread() } })).body.id;
    ids.threadsContainer = await thread();
    ids.threadsComment = await audienceComment('threads', ids.threads);

    ids.youtubePrivate = (await youtubeUpload(A, 'A private title', 'private', true)).videoId!;
    ids.youtubePublic = (await youtubeUpload(A, 'A public title', 'public', true)).videoId!;
    ids.youtubeSession = (await youtubeUpload(A, 'A unfinished upload', 'private', false)).session;
    ids.youtubeComment = await audienceComment('youtube', ids.youtubePrivate);
    ids.youtubePublicComment = await audienceComment('youtube', ids.youtubePublic);

    ids.tweet = (await x(A, 'POST', '/2/tweets', { json: { text: 'A on twitter' } })).body.data.id;
    ids.tweetComment = await audienceComment('twitter', ids.tweet);

    const li = await send('POST', '/sandbox/linkedin/rest/posts', {
      headers: { ...bearer(A, 'linkedin'), ...LINKEDIN_HEADERS },
      json: { author: `urn:li:person:${A.acct.linkedin}`, commentary: 'A on linkedin', visibility: 'PUBLIC', lifecycleState: 'PUBLISHED', distribution: { feedDistribution: 'MAIN_FEED' } },
    });
    ids.linkedin = li.headers.get('x-restli-id')!;
    ids.linkedinComment = await audienceComment('linkedin', ids.linkedin);

    const submitted = await send('POST', '/sandbox/reddit/api/submit', { headers: { ...bearer(A, 'reddit'), ...REDDIT_AGENT }, form: { sr: 'sandbox', title: 'A on reddit', kind: 'self', text: 'hello' } });
    ids.reddit = submitted.body.json.data.name;

    const board = (await send('GET', '/sandbox/pinterest/v5/boards', { headers: bearer(A, 'pinterest') })).body.items[0].id;
    ids.pinterestBoard = board;
    ids.pin = (await send('POST', '/sandbox/pinterest/v5/pins', { headers: bearer(A, 'pinterest'), json: { board_id: board, description: 'A on pinterest', media_source: { source_type: 'image_url', url: 'https://example.com/a.png' } } })).body.id;
    ids.pinterestMedia = (await send('POST', '/sandbox/pinterest/v5/media', { headers: bearer(A, 'pinterest'), json: { media_type: 'video' } })).body.media_id;

    const init = await send('POST', '/sandbox/tiktok/v2/post/publish/video/init/', {
      headers: bearer(A, 'tiktok'),
      json: { post_info: { title: 'A on tiktok', privacy_level: 'SELF_ONLY' }, source_info: { source: 'PULL_FROM_URL', video_url: 'https://example.com/v.mp4' } },
    });
    ids.tiktokPublish = init.body.data.publish_id;
    svc.clock.advance(6_000);
    ids.tiktok = (await send('POST', '/sandbox/tiktok/v2/post/publish/status/fetch/', { headers: bearer(A, 'tiktok'), json: { publish_id: ids.tiktokPublish } })).body.data.publicaly_available_post_id[0];

    for (const t of [A, B]) {
      const account = (await send('GET', '/sandbox/gmb/mybusinessaccountmanagement/v1/accounts', { headers: bearer(t, 'gmb') })).body.accounts[0].name.split('/')[1];
      const location = (await send('GET', `/sandbox/gmb/mybusinessbusinessinformation/v1/accounts/${account}/locations?readMask=name`, { headers: bearer(t, 'gmb') })).body.locations[0].name.split('/')[1];
      t.acct.gmb = `${account}|${location}`;
      t.acct.snapchat = (await send('GET', '/sandbox/snapchat/v1/me/public_profile', { headers: bearer(t, 'snapchat') })).body.public_profile.id;
    }
    ids.gmb = ((await send('POST', gmbPath(A), { headers: bearer(A, 'gmb'), json: { summary: 'A on gmb' } })).body.name as string).split('/').pop()!;
    const message = await tg(A, 'sendMessage', { chat_id: A.acct.telegram, text: 'A on telegram' });
    assert.equal(message.status, 200, JSON.stringify(message.body));
    ids.telegram = String(message.body.result.message_id);

    ids.snapMedia = (
      await send('POST', `/sandbox/snapchat/v1/public_profiles/${A.acct.snapchat}/media`, {
        headers: bearer(A, 'snapchat'),
        json: { type: 'IMAGE', name: 'A on snapchat', key: Buffer.alloc(32, 7).toString('base64'), iv: Buffer.alloc(16, 3).toString('base64') },
      })
    ).body.media_id;

    // Through the service: each tenant publishes a tweet (which binds its X app), A's is the service post below.
    for (const t of [A, B]) {
      const created = await send('POST', '/api/post', { headers: apiKeyOf(t), json: { post: `${t.name} through the service`, platforms: ['twitter'] } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const post = await waitForPost(svc, created.body.id, (p) => p.status === 'success' || p.status === 'error', apiKeyOf(t));
      assert.equal(post.status, 'success', JSON.stringify(post));
      if (t === A) {
        ids.servicePost = created.body.id;
        ids.serviceTweet = post.postIds[0].id;
      }
    }
    ids.serviceTweetComment = await audienceComment('twitter', ids.serviceTweet);

    for (const [name, value] of Object.entries(ids)) assert.ok(typeof value === 'string' && value !== '', `A's ${name} was created`);
  });
  after(() => svc?.close());

  const telegramStillThere = async () =>
    Number((await svc.sql("SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = 'telegram' AND account_id = ? AND network_id = ? AND deleted_at IS NULL", [A.acct.telegram, ids.telegram])).rows[0]!.n) === 1;
  const stillThere = async (platform: string, networkId: string) =>
    Number((await svc.sql('SELECT COUNT(*) AS n FROM sandbox_posts WHERE platform = ? AND network_id = ? AND deleted_at IS NULL', [platform, networkId])).rows[0]!.n) === 1;

  /**
   * Every sandbox route that finds something by id, called with the tenant's own credentials and account but A's
   * ids. Routes that change or remove A's objects come last, so A's successful calls do not take away what the
   * later rows read.
   */
  const ROUTES: RouteCase[] = [
    // The generic API and its engagement routes (/sandbox/net/{platform}).
    { name: 'generic GET /posts/{id}', call: (t) => send('GET', `/sandbox/net/youtube/posts/${ids.generic}`, { headers: bearer(t, 'youtube') }) },
    { name: 'generic GET /posts?accountId=A&clientKey=', call: (t) => send('GET', `/sandbox/net/youtube/posts?accountId=${A.acct.youtube}&clientKey=tenancy-key`, { headers: bearer(t, 'youtube') }) },
    {
      name: 'generic GET /insights (a private video of another channel is not found)',
      call: (t) => send('GET', `/sandbox/net/youtube/insights?accountId=${t.acct.youtube}&ids=${ids.generic}`, { headers: bearer(t, 'youtube') }),
      refused: (a) => a.status === 200 && a.body.data[0].found === false && !JSON.stringify(a.body).includes('private generic title'),
      allowed: (a) => a.status === 200 && a.body.data[0].found === true && a.body.data[0].title === 'A private generic title',
    },
    { name: 'generic GET /accounts/{A}/insights', call: (t) => send('GET', `/sandbox/net/youtube/accounts/${A.acct.youtube}/insights`, { headers: bearer(t, 'youtube') }) },
    { name: 'generic GET /posts/{id}/comments', call: (t) => send('GET', `/sandbox/net/youtube/posts/${ids.generic}/comments`, { headers: bearer(t, 'youtube') }) },
    { name: 'generic POST /posts/{id}/replies', call: (t) => send('POST', `/sandbox/net/youtube/posts/${ids.generic}/replies`, { headers: bearer(t, 'youtube'), json: { commentId: ids.genericComment, text: 'reply' } }) },
    { name: 'generic POST /posts/{id}/comments', call: (t) => send('POST', `/sandbox/net/youtube/posts/${ids.generic}/comments`, { headers: bearer(t, 'youtube'), json: { text: 'a first comment' } }) },
    { name: 'switch POST /p/{id}/audience-comments (API key)', call: (t) => send('POST', `/sandbox/net/youtube/p/${ids.generic}/audience-comments`, { headers: apiKeyOf(t), json: { text: 'planted' } }) },
    { name: 'switch PUT /accounts/{A}/insights-fault (API key)', call: (t) => send('PUT', `/sandbox/net/youtube/accounts/${A.acct.youtube}/insights-fault`, { headers: apiKeyOf(t), json: { fault: null } }) },
    { name: 'switch POST /accounts/{A}/audience-messages (API key)', call: (t) => send('POST', `/sandbox/net/instagram/accounts/${A.acct.instagram}/audience-messages`, { headers: apiKeyOf(t), json: { text: 'hi' } }) },
    { name: 'generic POST /comments/{id}/private-replies', call: (t) => send('POST', `/sandbox/net/instagram/comments/${ids.instagramComment}/private-replies`, { headers: bearer(t, 'instagram'), json: { text: 'in private' } }) },

    // bluesky: records and threads are public (getRecord, getPostThread); a repo is written only by its own session.
    { name: 'bluesky createRecord in A\'s repo', call: (t) => send('POST', '/sandbox/xrpc/com.atproto.repo.createRecord', { headers: bearer(t, 'bluesky'), json: { repo: A.acct.bluesky, collection: 'app.bsky.feed.post', record: { text: 'in A\'s repo', createdAt: new Date(svc.clock()).toISOString() } } }) },

    // facebook
    { name: 'facebook GET /{post}', call: (t) => send('GET', `/sandbox/facebook/${VERSION}/${ids.facebook}?fields=message`, { headers: bearer(t, 'facebook') }) },
    { name: 'facebook GET /{post}/comments', call: (t) => send('GET', `/sandbox/facebook/${VERSION}/${ids.facebook}/comments`, { headers: bearer(t, 'facebook') }) },
    { name: 'facebook GET /{post}/insights', call: (t) => send('GET', `/sandbox/facebook/${VERSION}/${ids.facebook}/insights?metric=post_impressions`, { headers: bearer(t, 'facebook') }) },
    { name: 'facebook GET /{A page}?fields=fan_count', call: (t) => send('GET', `/sandbox/facebook/${VERSION}/${A.acct.facebook}?fields=fan_count`, { headers: bearer(t, 'facebook') }) },
    { name: 'facebook GET /{A page}/published_posts', call: (t) => send('GET', `/sandbox/facebook/${VERSION}/${A.acct.facebook}/published_posts`, { headers: bearer(t, 'facebook') }) },
    { name: 'facebook POST /{A page}/feed', call: (t) => send('POST', `/sandbox/facebook/${VERSION}/${A.acct.facebook}/feed`, { headers: bearer(t, 'facebook'), json: { message: `as ${t.name}` } }) },
    { name: 'facebook POST /{post}/comments', call: (t) => send('POST', `/sandbox/facebook/${VERSION}/${ids.facebook}/comments`, { headers: bearer(t, 'facebook'), json: { message: 'comment' } }) },
    { name: 'facebook POST /{comment}/comments (reply)', call: (t) => send('POST', `/sandbox/facebook/${VERSION}/${ids.facebookComment}/comments`, { headers: bearer(t, 'facebook'), json: { message: 'reply' } }) },
    { name: 'facebook POST /{page}/messages (private reply to A\'s comment)', call: (t) => send('POST', `/sandbox/facebook/${VERSION}/${t.acct.facebook}/messages`, { headers: bearer(t, 'facebook'), json: { recipient: { comment_id: ids.facebookComment }, message: { text: 'dm' } } }) },
    { name: 'facebook POST /video-upload/{A reel}', call: (t) => send('POST', `/sandbox/facebook/video-upload/${VERSION}/${ids.facebookReel}`, { headers: { ...bearer(t, 'facebook'), file_url: 'https://example.com/reel.mp4' } }) },
    {
      name: 'facebook POST /{page}/video_reels finish with A\'s video',
      call: (t) => send('POST', `/sandbox/facebook/${VERSION}/${t.acct.facebook}/video_reels`, { headers: bearer(t, 'facebook'), json: { upload_phase: 'finish', video_id: ids.facebookReel, video_state: 'PUBLISHED', description: 'reel' } }),
    },

    // instagram
    { name: 'instagram GET /{media}', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${ids.instagram}?fields=caption,like_count`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram GET /{container}?fields=status_code', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${ids.instagramContainer}?fields=status_code`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram GET /{A user}?fields=followers_count', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${A.acct.instagram}?fields=followers_count`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram GET /{A user}/media', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${A.acct.instagram}/media`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram GET /{media}/insights', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${ids.instagram}/insights?metric=reach`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram GET /{media}/comments', call: (t) => send('GET', `/sandbox/instagram/${VERSION}/${ids.instagram}/comments`, { headers: bearer(t, 'instagram') }) },
    { name: 'instagram POST /{media}/comments', call: (t) => send('POST', `/sandbox/instagram/${VERSION}/${ids.instagram}/comments`, { headers: bearer(t, 'instagram'), json: { message: 'comment' } }) },
    { name: 'instagram POST /{comment}/replies', call: (t) => send('POST', `/sandbox/instagram/${VERSION}/${ids.instagramComment}/replies`, { headers: bearer(t, 'instagram'), json: { message: 'reply' } }) },
    { name: 'instagram POST /{user}/messages (private reply to A\'s comment)', call: (t) => send('POST', `/sandbox/instagram/${VERSION}/${t.acct.instagram}/messages`, { headers: bearer(t, 'instagram'), json: { recipient: { comment_id: ids.instagramComment2 }, message: { text: 'dm' } } }) },
    {
      name: 'instagram POST /{user}/media (carousel of A\'s container)',
      call: (t) => send('POST', `/sandbox/instagram/${VERSION}/${t.acct.instagram}/media`, { headers: bearer(t, 'instagram'), json: { media_type: 'CAROUSEL', children: [ids.instagramContainer, ids.instagramContainer] } }),
    },

    // threads
    { name: 'threads GET /{post}', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${ids.threads}`, { headers: bearer(t, 'threads') }) },
    { name: 'threads GET /{container}', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${ids.threadsContainer}`, { headers: bearer(t, 'threads') }) },
    { name: 'threads GET /{post}/insights', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${ids.threads}/insights?metric=views`, { headers: bearer(t, 'threads') }) },
    { name: 'threads GET /{post}/conversation', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${ids.threads}/conversation`, { headers: bearer(t, 'threads') }) },
    { name: 'threads GET /{A user}/threads', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${A.acct.threads}/threads`, { headers: bearer(t, 'threads') }) },
    { name: 'threads GET /{A user}/threads_insights', call: (t) => send('GET', `/sandbox/threads/${VERSION}/${A.acct.threads}/threads_insights?metric=followers_count`, { headers: bearer(t, 'threads') }) },
    { name: 'threads POST /{user}/threads replying to A\'s comment', call: (t) => send('POST', `/sandbox/threads/${VERSION}/${t.acct.threads}/threads`, { headers: bearer(t, 'threads'), json: { media_type: 'TEXT', text: 'reply', reply_to_id: ids.threadsComment } }) },

    // youtube: a public video is read by anyone (checked below); private ones and uploads only by their channel.
    {
      name: 'youtube GET /videos?part=snippet,statistics (A\'s private video)',
      call: (t) => send('GET', `/sandbox/youtube/youtube/v3/videos?part=snippet,statistics,status&id=${ids.youtubePrivate}`, { headers: bearer(t, 'youtube') }),
      refused: (a) => a.status === 200 && a.body.items.length === 0,
      allowed: (a) => a.status === 200 && a.body.items[0]?.snippet.title === 'A private title',
    },
    {
      name: 'youtube GET /videos?part=status',
      call: (t) => send('GET', `/sandbox/youtube/youtube/v3/videos?part=status&id=${ids.youtubePrivate}`, { headers: bearer(t, 'youtube') }),
      refused: (a) => a.status === 200 && a.body.items.length === 0,
      allowed: (a) => a.status === 200 && a.body.items.length === 1,
    },
    { name: 'youtube GET /commentThreads (A\'s private video)', call: (t) => send('GET', `/sandbox/youtube/youtube/v3/commentThreads?part=snippet,replies&videoId=${ids.youtubePrivate}`, { headers: bearer(t, 'youtube') }) },
    { name: 'youtube POST /commentThreads', call: (t) => send('POST', '/sandbox/youtube/youtube/v3/commentThreads?part=snippet', { headers: bearer(t, 'youtube'), json: { snippet: { videoId: ids.youtubePrivate, topLevelComment: { snippet: { textOriginal: 'comment' } } } } }) },
    { name: 'youtube POST /comments (reply, private video)', call: (t) => send('POST', '/sandbox/youtube/youtube/v3/comments?part=snippet', { headers: bearer(t, 'youtube'), json: { snippet: { parentId: ids.youtubeComment, textOriginal: 'reply' } } }) },
    { name: 'youtube POST /comments (reply, public video)', call: (t) => send('POST', '/sandbox/youtube/youtube/v3/comments?part=snippet', { headers: bearer(t, 'youtube'), json: { snippet: { parentId: ids.youtubePublicComment, textOriginal: 'reply' } } }) },
    {
      name: 'youtube POST /watermarks/unset?channelId=A',
      call: (t) => send('POST', `/sandbox/youtube/youtube/v3/watermarks/unset?channelId=${A.acct.youtube}`, { headers: bearer(t, 'youtube') }),
    },
    { name: 'youtube PUT upload session of A', call: (t) => send('PUT', `/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=${ids.youtubeSession}`, { headers: bearer(t, 'youtube'), body: Buffer.alloc(16, 2) }) },

    // twitter: conversations and public metrics are public on X; private metrics and replies as the author are not.
    {
      name: 'twitter GET /2/tweets non_public_metrics',
      call: (t) => x(t, 'GET', `/2/tweets?ids=${ids.tweet}&tweet.fields=non_public_metrics`),
      refused: (a) => a.status === 200 && a.body.data[0].non_public_metrics === undefined && a.body.errors?.[0]?.type === 'https://api.twitter.com/2/problems/not-authorized-for-field',
      allowed: (a) => a.status === 200 && typeof a.body.data[0].non_public_metrics?.impression_count === 'number',
    },
    { name: 'twitter GET /2/users/{A}/tweets', call: (t) => x(t, 'GET', `/2/users/${A.acct.twitter}/tweets`) },
    { name: 'twitter POST /2/tweets replying to a comment under A\'s tweet', call: (t) => x(t, 'POST', '/2/tweets', { json: { text: `reply by ${t.name}`, reply: { in_reply_to_tweet_id: ids.tweetComment } } }) },

    // linkedin
    { name: 'linkedin GET /rest/posts/{urn}', call: (t) => send('GET', `/sandbox/linkedin/rest/posts/${encodeURIComponent(ids.linkedin)}`, { headers: li(t) }) },
    { name: 'linkedin GET /rest/posts?author=A', call: (t) => send('GET', `/sandbox/linkedin/rest/posts?q=author&author=${encodeURIComponent(`urn:li:person:${A.acct.linkedin}`)}`, { headers: li(t) }) },
    { name: 'linkedin GET /rest/socialActions/{urn}/comments', call: (t) => send('GET', `/sandbox/linkedin/rest/socialActions/${encodeURIComponent(ids.linkedin)}/comments`, { headers: li(t) }) },
    {
      name: 'linkedin POST /rest/socialActions/{urn}/comments',
      call: (t) => send('POST', `/sandbox/linkedin/rest/socialActions/${encodeURIComponent(ids.linkedin)}/comments`, { headers: li(t), json: { actor: `urn:li:person:${t.acct.linkedin}`, message: { text: 'comment' } } }),
    },
    {
      name: 'linkedin POST /rest/socialActions/{comment urn}/comments (reply)',
      call: (t) => {
        const parent = `urn:li:comment:(${ids.linkedin},${ids.linkedinComment})`;
        return send('POST', `/sandbox/linkedin/rest/socialActions/${encodeURIComponent(parent)}/comments`, {
          headers: li(t),
          json: { actor: `urn:li:person:${t.acct.linkedin}`, object: ids.linkedin, parentComment: parent, message: { text: 'reply' } },
        });
      },
    },
    {
      name: 'linkedin GET /rest/memberCreatorPostAnalytics',
      call: (t) => send('GET', `/sandbox/linkedin/rest/memberCreatorPostAnalytics?q=entity&entity=${encodeURIComponent(`(share:${ids.linkedin})`)}&queryType=IMPRESSION&aggregation=TOTAL`, { headers: li(t) }),
    },
    {
      name: 'linkedin GET /rest/organizationalEntityShareStatistics (own organization, A\'s share)',
      call: (t) =>
        send('GET', `/sandbox/linkedin/rest/organizationalEntityShareStatistics?q=organizationalEntity&organizationalEntity=${encodeURIComponent(`urn:li:organization:${t.acct.linkedin}`)}&shares=List(${encodeURIComponent(ids.linkedin)})`, { headers: li(t) }),
      refused: (a) => a.status === 200 && a.body.elements.length === 0,
      allowed: (a) => a.status === 200 && a.body.elements.length === 1,
    },

    // reddit
    {
      name: 'reddit POST /api/comment',
      call: (t) => send('POST', '/sandbox/reddit/api/comment', { headers: { ...bearer(t, 'reddit'), ...REDDIT_AGENT }, form: { thing_id: ids.reddit, text: 'comment' } }),
      refused: (a) => a.status === 200 && a.body.json.errors[0]?.[0] === 'NO_THING_ID',
      allowed: (a) => a.status === 200 && a.body.json.errors.length === 0,
    },

    // pinterest
    { name: 'pinterest GET /v5/boards/{A board}/pins', call: (t) => send('GET', `/sandbox/pinterest/v5/boards/${ids.pinterestBoard}/pins`, { headers: bearer(t, 'pinterest') }) },
    { name: 'pinterest GET /v5/media/{A media}', call: (t) => send('GET', `/sandbox/pinterest/v5/media/${ids.pinterestMedia}`, { headers: bearer(t, 'pinterest') }) },

    // tiktok
    { name: 'tiktok POST /v2/post/publish/status/fetch/', call: (t) => send('POST', '/sandbox/tiktok/v2/post/publish/status/fetch/', { headers: bearer(t, 'tiktok'), json: { publish_id: ids.tiktokPublish } }) },
    {
      name: 'tiktok POST /v2/video/query/',
      call: (t) => send('POST', '/sandbox/tiktok/v2/video/query/?fields=id,title,view_count', { headers: bearer(t, 'tiktok'), json: { filters: { video_ids: [ids.tiktok] } } }),
      refused: (a) => a.status === 200 && a.body.data.videos.length === 0,
      allowed: (a) => a.status === 200 && a.body.data.videos.length === 1,
    },
    {
      name: 'tiktok POST /open_api/v1.3/business/comment/create/',
      call: (t) => send('POST', '/sandbox/tiktok/open_api/v1.3/business/comment/create/', { headers: { 'Access-Token': t.tokens.tiktok.accessToken }, json: { video_id: ids.tiktok, text: 'comment' } }),
      refused: (a) => a.body.code === 40002,
      allowed: (a) => a.body.code === 0,
    },

    // gmb
    { name: 'gmb GET localPosts of A\'s location', call: (t) => send('GET', gmbPath(A), { headers: bearer(t, 'gmb') }) },
    { name: 'gmb GET localPosts/{post}', call: (t) => send('GET', `${gmbPath(A)}/${ids.gmb}`, { headers: bearer(t, 'gmb') }) },
    { name: 'gmb GET own location + A\'s post id', call: (t) => send('GET', `${gmbPath(t)}/${ids.gmb}`, { headers: bearer(t, 'gmb') }) },

    // snapchat
    { name: 'snapchat POST /v1/media/{A media}/multipart-upload-v2', call: (t) => send('POST', `/sandbox/snapchat/v1/media/${ids.snapMedia}/multipart-upload-v2?action=FINALIZE`, { headers: bearer(t, 'snapchat') }),
      // A's own media is found (and refused only for having no part yet).
      refused: (a) => a.status === 404,
      allowed: (a) => a.status === 400 && JSON.stringify(a.body).includes('No media part'),
    },
    { name: 'snapchat GET /v1/public_profiles/{A}/saved_stories', call: (t) => send('GET', `/sandbox/snapchat/v1/public_profiles/${A.acct.snapchat}/saved_stories`, { headers: bearer(t, 'snapchat') }) },
    {
      name: 'snapchat POST /v1/public_profiles/{own}/saved_stories with A\'s media',
      call: (t) => send('POST', `/sandbox/snapchat/v1/public_profiles/${t.acct.snapchat}/saved_stories`, { headers: bearer(t, 'snapchat'), json: { saved_stories: [{ title: 'x', snap_sources: [{ media_id: ids.snapMedia }] }] } }),
      refused: (a) => a.status === 400 && JSON.stringify(a.body).includes('does not name a media'),
      allowed: (a) => a.status === 400 && JSON.stringify(a.body).includes('not finalized'),
    },

    // telegram: a bot token acts only in its own chat (Telegram's answer to a bot for a chat it is not in).
    {
      name: 'telegram sendMessage to A\'s chat',
      call: (t) => tg(t, 'sendMessage', { chat_id: A.acct.telegram, text: `as ${t.name}` }),
      refused: chatNotFound,
      allowed: (a) => a.status === 200 && a.body.ok === true && String(a.body.result.chat.id) === A.acct.telegram,
    },
    {
      name: 'telegram sendPhoto to A\'s chat',
      call: (t) => tg(t, 'sendPhoto', { chat_id: Number(A.acct.telegram), photo: 'https://example.com/a.png', caption: `as ${t.name}` }),
      refused: chatNotFound,
    },
    {
      name: 'telegram sendMediaGroup to A\'s chat',
      call: (t) => tg(t, 'sendMediaGroup', { chat_id: A.acct.telegram, media: [{ type: 'photo', media: 'https://example.com/a.png' }, { type: 'photo', media: 'https://example.com/b.png' }] }),
      refused: chatNotFound,
    },

    // Last: the rows that change or remove A's objects.
    {
      name: 'instagram POST /{user}/media_publish with A\'s container',
      call: (t) => send('POST', `/sandbox/instagram/${VERSION}/${t.acct.instagram}/media_publish`, { headers: bearer(t, 'instagram'), json: { creation_id: ids.instagramContainer } }),
    },
    { name: 'threads POST /{user}/threads_publish with A\'s container', call: (t) => send('POST', `/sandbox/threads/${VERSION}/${t.acct.threads}/threads_publish`, { headers: bearer(t, 'threads'), json: { creation_id: ids.threadsContainer } }) },
    { name: 'generic DELETE /posts/{id}', call: (t) => send('DELETE', `/sandbox/net/youtube/posts/${ids.generic}`, { headers: bearer(t, 'youtube') }) },
    {
      name: 'bluesky deleteRecord (own repo, A\'s record key)',
      call: (t) => send('POST', '/sandbox/xrpc/com.atproto.repo.deleteRecord', { headers: bearer(t, 'bluesky'), json: { repo: t.acct.bluesky, collection: 'app.bsky.feed.post', rkey: ids.blueskyRkey } }),
      refused: async (a) => a.status === 200 && (await stillThere('bluesky', `app.bsky.feed.post/${ids.blueskyRkey}`)),
      allowed: async (a) => a.status === 200 && !(await stillThere('bluesky', `app.bsky.feed.post/${ids.blueskyRkey}`)),
    },
    { name: 'bluesky deleteRecord (A\'s repo)', call: (t) => send('POST', '/sandbox/xrpc/com.atproto.repo.deleteRecord', { headers: bearer(t, 'bluesky'), json: { repo: A.acct.bluesky, collection: 'app.bsky.feed.post', rkey: ids.blueskyRkey } }) },
    { name: 'facebook DELETE /{post}', call: (t) => send('DELETE', `/sandbox/facebook/${VERSION}/${ids.facebook}`, { headers: bearer(t, 'facebook') }) },
    { name: 'youtube DELETE /videos?id=', call: (t) => send('DELETE', `/sandbox/youtube/youtube/v3/videos?id=${ids.youtubePrivate}`, { headers: bearer(t, 'youtube') }) },
    { name: 'twitter DELETE /2/tweets/{id}', call: (t) => x(t, 'DELETE', `/2/tweets/${ids.tweet}`) },
    { name: 'linkedin DELETE /rest/posts/{urn}', call: (t) => send('DELETE', `/sandbox/linkedin/rest/posts/${encodeURIComponent(ids.linkedin)}`, { headers: li(t) }) },
    {
      name: 'reddit POST /api/del',
      call: (t) => send('POST', '/sandbox/reddit/api/del', { headers: { ...bearer(t, 'reddit'), ...REDDIT_AGENT }, form: { id: ids.reddit } }),
      refused: async (a) => a.status === 200 && (await stillThere('reddit', ids.reddit)),
      allowed: async (a) => a.status === 200 && !(await stillThere('reddit', ids.reddit)),
    },
    { name: 'pinterest DELETE /v5/pins/{id}', call: (t) => send('DELETE', `/sandbox/pinterest/v5/pins/${ids.pin}`, { headers: bearer(t, 'pinterest') }) },
    { name: 'gmb DELETE localPosts/{post}', call: (t) => send('DELETE', `${gmbPath(A)}/${ids.gmb}`, { headers: bearer(t, 'gmb') }) },
    {
      name: 'telegram deleteMessage in A\'s chat',
      call: (t) => tg(t, 'deleteMessage', { chat_id: A.acct.telegram, message_id: Number(ids.telegram) }),
      refused: async (a) => chatNotFound(a) && (await telegramStillThere()),
      allowed: async (a) => a.status === 200 && a.body.result === true && !(await telegramStillThere()),
    },
  ];


  const api = (t: Tenant, method: string, path: string, json?: unknown) => send(method, `/api${path}`, { headers: apiKeyOf(t), ...(json !== undefined && { json }) });
  const notFoundOnNetwork = (a: Answer) => a.status === 404 && a.body.status === 'error' && [186, 490].includes(a.body.code);
  const success = (a: Answer) => a.status === 200 && a.body.status === 'success';

  /**
   * The public API routes that pass a network post id (or a comment id) on to the network, with the profile's own
   * linked account: the network finds the id only through the account that owns it, and the service answers its
   * error envelope with 186 (post not found for the account) or 490 (no such comment).
   */
  const SERVICE_ROUTES: RouteCase[] = [
    ...(
      [
        ['facebook', () => ids.facebook],
        ['instagram', () => ids.instagram],
        ['linkedin', () => ids.linkedin],
        ['threads', () => ids.threads],
        ['tiktok', () => ids.tiktok],
        ['twitter', () => ids.serviceTweet],
        ['youtube', () => ids.youtubePrivate],
      ] as const
    ).map(([platform, id]): RouteCase => ({
      name: `POST /api/analytics/post searchPlatformId ${platform}`,
      call: (t) => api(t, 'POST', '/analytics/post', { id: id(), platforms: [platform], searchPlatformId: true }),
      refused: (a) => notFoundOnNetwork(a) && !JSON.stringify(a.body).includes('A private title'),
      allowed: success,
    })),
    ...(
      [
        ['facebook', () => ids.facebook],
        ['instagram', () => ids.instagram],
        ['linkedin', () => ids.linkedin],
        ['threads', () => ids.threads],
        ['twitter', () => ids.serviceTweet],
        ['youtube', () => ids.youtubePrivate],
      ] as const
    ).map(([platform, id]): RouteCase => ({
      name: `GET /api/comments/{id}?searchPlatformId ${platform}`,
      call: (t) => api(t, 'GET', `/comments/${encodeURIComponent(id())}?searchPlatformId=true&platform=${platform}`),
      refused: (a) => notFoundOnNetwork(a) && !JSON.stringify(a.body).includes('a comment on'),
      allowed: (a) => success(a) && JSON.stringify(a.body).includes(`a comment on ${platform}`),
    })),
    ...(
      [
        ['facebook', () => ids.facebook, () => ids.facebookComment],
        ['instagram', () => ids.instagram, () => ids.instagramComment],
        ['linkedin', () => ids.linkedin, () => `urn:li:comment:(${ids.linkedin},${ids.linkedinComment})`],
        ['threads', () => ids.threads, () => ids.threadsComment],
        ['twitter', () => ids.serviceTweet, () => ids.serviceTweetComment],
        ['youtube', () => ids.youtubePrivate, () => ids.youtubeComment],
      ] as const
    ).map(([platform, id, comment]): RouteCase => ({
      name: `POST /api/comments/{id}/reply?searchPlatformId ${platform}`,
      call: (t) => api(t, 'POST', `/comments/${encodeURIComponent(id())}/reply?searchPlatformId=true`, { commentId: comment(), platforms: [platform], comment: `reply by ${t.name}` }),
      refused: notFoundOnNetwork,
      allowed: success,
    })),
    { name: 'GET /api/post/{A\'s post}', call: (t) => api(t, 'GET', `/post/${ids.servicePost}`), refused: (a) => a.status === 404, allowed: (a) => a.status === 200 },
    { name: 'DELETE /api/post {A\'s post}', call: (t) => api(t, 'DELETE', '/post', { id: ids.servicePost }), refused: (a) => a.status === 404 && a.body.status === 'error', allowed: success },
  ];

  it('through the public API, tenant B cannot read A\'s analytics or comments, reply under A\'s posts or delete them', async () => {
    const wrong: string[] = [];
    for (const route of SERVICE_ROUTES) {
      const answer = await route.call(B);
      if (!(await route.refused!(answer))) wrong.push(`B ${route.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    for (const route of SERVICE_ROUTES) {
      const answer = await route.call(A);
      if (!(await route.allowed!(answer))) wrong.push(`A ${route.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('what a network shows anyone stays public: bluesky records, a public youtube video, X conversations, post pages', async () => {
    const record = await send('GET', `/sandbox/xrpc/com.atproto.repo.getRecord?repo=${A.acct.bluesky}&collection=app.bsky.feed.post&rkey=${ids.blueskyRkey}`);
    assert.equal(record.status, 200);
    const thread = await send('GET', `/sandbox/xrpc/app.bsky.feed.getPostThread?uri=${encodeURIComponent(`at://${A.acct.bluesky}/app.bsky.feed.post/${ids.blueskyRkey}`)}`);
    assert.equal(thread.status, 200);
    // youtube: another channel's public video shows its snippet (zero metrics through the service, spec 4.4 rule 2) and comments.
    const video = await send('GET', `/sandbox/youtube/youtube/v3/videos?part=snippet,statistics&id=${ids.youtubePublic},${ids.youtubePrivate}`, { headers: bearer(B, 'youtube') });
    assert.deepEqual(video.body.items.map((item: any) => item.snippet.title), ['A public title']);
    const threads = await send('GET', `/sandbox/youtube/youtube/v3/commentThreads?part=snippet&videoId=${ids.youtubePublic}`, { headers: bearer(B, 'youtube') });
    assert.equal(threads.body.items.length, 1);
    const generic = await send('GET', `/sandbox/net/youtube/insights?accountId=${B.acct.youtube}&ids=${ids.genericPublic}`, { headers: bearer(B, 'youtube') });
    assert.deepEqual([generic.body.data[0].found, generic.body.data[0].owned, generic.body.data[0].title], [true, false, 'A public generic title']);
    const analytics = await api(B, 'POST', '/analytics/post', { id: ids.youtubePublic, platforms: ['youtube'], searchPlatformId: true });
    assert.equal(analytics.status, 200, JSON.stringify(analytics.body));
    assert.equal(analytics.body.youtube.owned, false);
    assert.equal(analytics.body.youtube.analytics.title, 'A public title');
    assert.equal(analytics.body.youtube.analytics.viewCount, 0);
    // X: a conversation and a tweet's public metrics are public.
    const conversation = await x(B, 'GET', `/2/tweets/search/recent?query=${encodeURIComponent(`conversation_id:${ids.tweet}`)}`);
    assert.equal(conversation.body.meta.result_count, 1);
    const metrics = await x(B, 'GET', `/2/tweets?ids=${ids.tweet}&tweet.fields=public_metrics`);
    assert.equal(typeof metrics.body.data[0].public_metrics.like_count, 'number');
    // Post pages are public; a private youtube video is not shown to a browser.
    assert.equal((await send('GET', `/sandbox/net/youtube/p/${ids.youtubePublic}`)).status, 200);
    assert.equal((await send('GET', `/sandbox/youtube/watch?v=${ids.youtubePublic}`)).status, 200);
    assert.equal((await send('GET', `/sandbox/net/youtube/p/${ids.genericPublic}`)).status, 200);
    assert.equal((await send('GET', `/sandbox/net/instagram/p/${ids.instagram}`)).status, 200);
  });

  it('a private youtube video is not shown on its post or watch page', async () => {
    const privateVideo = (await youtubeUpload(A, 'Another private title', 'private', true)).videoId!;
    for (const path of [`/sandbox/net/youtube/p/${privateVideo}`, `/sandbox/youtube/watch?v=${privateVideo}`]) {
      const page = await send('GET', path);
      assert.equal(page.status, 404, path);
      assert.doesNotMatch(String(page.body), /Another private title/);
    }
  });

  it('a token of one network is refused by every other network (each in its own error shape), and accepted by its own', async () => {
    /** A call that needs only a token of `network` (the tenant's own account where the path names one). */
    const WHO_AM_I: Partial<Record<Network, (token: string) => Promise<Answer>>> = {
      bluesky: (token) => send('POST', '/sandbox/xrpc/com.atproto.repo.uploadBlob', { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'image/png' }, body: Buffer.from('png') }),
      facebook: (token) => send('GET', `/sandbox/facebook/${VERSION}/${A.acct.facebook}/published_posts`, { headers: { Authorization: `Bearer ${token}` } }),
      instagram: (token) => send('GET', `/sandbox/instagram/${VERSION}/${A.acct.instagram}/media`, { headers: { Authorization: `Bearer ${token}` } }),
      threads: (token) => send('GET', `/sandbox/threads/${VERSION}/${A.acct.threads}/threads`, { headers: { Authorization: `Bearer ${token}` } }),
      youtube: (token) => send('GET', '/sandbox/youtube/youtube/v3/videoCategories?part=snippet&regionCode=US', { headers: { Authorization: `Bearer ${token}` } }),
      twitter: (token) => {
        const url = `${svc.url}/sandbox/twitter/2/users/${A.acct.twitter}/tweets`;
        const credentials = { consumerKey: SANDBOX_TWITTER_APP.apiKey, consumerSecret: SANDBOX_TWITTER_APP.apiSecret, token, tokenSecret: sandboxTwitterTokenSecret(token) };
        return send('GET', `/sandbox/twitter/2/users/${A.acct.twitter}/tweets`, { headers: { Authorization: oauth1Header(credentials, 'GET', url, svc.clock()) } });
      },
      linkedin: (token) => send('GET', `/sandbox/linkedin/rest/posts?q=author&author=${encodeURIComponent(`urn:li:person:${A.acct.linkedin}`)}`, { headers: { Authorization: `Bearer ${token}`, ...LINKEDIN_HEADERS } }),
      reddit: (token) => send('GET', '/sandbox/reddit/user/me/submitted', { headers: { Authorization: `Bearer ${token}`, ...REDDIT_AGENT } }),
      pinterest: (token) => send('GET', '/sandbox/pinterest/v5/boards', { headers: { Authorization: `Bearer ${token}` } }),
      tiktok: (token) => send('POST', '/sandbox/tiktok/v2/post/publish/creator_info/query/', { headers: { Authorization: `Bearer ${token}` }, json: {} }),
      gmb: (token) => send('GET', '/sandbox/gmb/mybusinessaccountmanagement/v1/accounts', { headers: { Authorization: `Bearer ${token}` } }),
      snapchat: (token) => send('GET', '/sandbox/snapchat/v1/me/public_profile', { headers: { Authorization: `Bearer ${token}` } }),
      telegram: (token) => send('POST', `/sandbox/telegram/bot${token}/sendMessage`, { json: { chat_id: A.acct.telegram, text: 'who am I' } }),
    };
    const tokenOf = (network: Network): string | null => (network === 'bluesky' ? A.tokens.bluesky.accessJwt : network === 'twitter' ? A.tokens.twitter.oauthToken : network === 'telegram' ? A.tokens.telegram.botToken : (A.tokens[network].accessToken ?? null));
    const wrong: string[] = [];
    for (const [network, call] of Object.entries(WHO_AM_I) as [Network, (token: string) => Promise<Answer>][]) {
      const own = await call(tokenOf(network)!);
      if (!is2xx(own)) wrong.push(`${network} refused its own token: ${own.status}`);
      // The generic API checks its tokens the same way (it serves neither bluesky nor telegram).
      const generic$ = network !== 'bluesky' && network !== 'telegram';
      const genericOwn = !generic$ ? null : await send('GET', `/sandbox/net/${network}/posts/none`, { headers: { Authorization: `Bearer ${A.tokens[network].accessToken}` } });
      if (genericOwn && genericOwn.status !== 404) wrong.push(`generic ${network} refused its own token: ${genericOwn.status}`);
      for (const other of NETWORKS) {
        const token = other === network ? null : tokenOf(other);
        if (!token) continue;
        const answer = await call(token);
        if (answer.status !== 401) wrong.push(`${network} with a ${other} token: ${answer.status} ${JSON.stringify(answer.body).slice(0, 120)}`);
        if (generic$) {
          const generic = await send('GET', `/sandbox/net/${network}/posts/none`, { headers: { Authorization: `Bearer ${token}` } });
          if (generic.status !== 401) wrong.push(`generic ${network} with a ${other} token: ${generic.status}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('every sandbox route refuses tenant B with tenant A\'s ids, in the network\'s own error shape', async () => {
    const wrong: string[] = [];
    for (const route of ROUTES) {
      const answer = await route.call(B);
      if (!(await (route.refused ?? is4xx)(answer))) wrong.push(`${route.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('the same calls go through as tenant A (so the refusals above are about the tenant)', async () => {
    const wrong: string[] = [];
    for (const route of ROUTES) {
      const answer = await route.call(A);
      if (!(await (route.allowed ?? is2xx)(answer))) wrong.push(`${route.name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    }
    assert.deepEqual(wrong, []);
  });
});
