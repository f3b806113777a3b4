/**
 * @module
 * The sandbox Google Business Profile APIs at `/sandbox/gmb/{service}`, in Google's wire format, for the gmb adapter.
 * Each Google service is served under its host's first label (google-api.ts maps `https://{service}.googleapis.com`
 * there). Every call needs `Authorization: Bearer <sandbox access token>`; each sandbox account manages one business
 * account with one location, whose numeric ids are derived from the account id:
 * - `GET /mybusinessaccountmanagement/v1/accounts` → `{accounts: [{name: "accounts/{n}", accountName, type,
 *   verificationState}]}`;
 * - `GET /mybusinessbusinessinformation/v1/accounts/{n}/locations?readMask=…` (readMask required) →
 *   `{locations: [{name: "locations/{m}", title}]}`;
 * - `POST /mybusiness/v4/accounts/{n}/locations/{m}/localPosts` (a LocalPost) → the LocalPost with `name`,
 *   `state: LIVE`, `searchUrl`, `createTime`; the checks Google makes (summary ≤1,500, topic needs, media PHOTO with
 *   a `sourceUrl`, call-to-action types) answer 400 INVALID_ARGUMENT with field violations;
 * - `GET …/localPosts?pageSize&pageToken` → `{localPosts, nextPageToken?}` newest first; `GET …/localPosts/{p}`; `DELETE …/localPosts/{p}` → `{}`.
 * Errors: `{error: {code, message, status, details?}}`. Fault markers in the summary: 519 (503 "Authentication backend
 * unavailable."), 401, 403, 429, 500 (docs/sandbox-faults.md).
 */
import type { SandboxEnv, SandboxHost } from '@social-link-kit/server/sandbox-host.js';
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createHash, randomInt } from 'node:crypto';
import { faultMarker } from './faults.js';
import { containsNul } from './input-guards.js';
import { sandboxAccountOfBearer } from './sandbox-bearer-account.js';
import { sandboxStoreOf } from './sandbox-tokens.js';
import type { SandboxPost } from './store.js';
import { answerOwnErrors } from './own-errors.js';

const SUMMARY_MAX = 1_500;
const TOPIC_TYPES = ['STANDARD', 'EVENT', 'OFFER', 'ALERT'];
const ACTION_TYPES = ['BOOK', 'ORDER', 'SHOP', 'LEARN_MORE', 'SIGN_UP', 'CALL'];
const CANONICAL: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

class GoogleError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly violations: { field: string; description: string }[] = [],
  ) {
    super(message);
  }
}

const invalid = (field: string, description: string) => new GoogleError(400, 'Request contains an invalid argument.', [{ field, description }]);
const FAULTS: Record<string, () => GoogleError> = {
  '519': () => new GoogleError(503, 'Authentication backend unavailable.'),
  '401': () => new GoogleError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.'),
  '403': () => new GoogleError(403, 'The caller does not have permission'),
  '429': () => new GoogleError(429, "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'mybusiness.googleapis.com'."),
  '500': () => new GoogleError(500, 'Internal error encountered.'),
};

/** Stable digits for a sandbox account: Google's account and location ids are numbers. */
function digitsOf(accountId: string, salt: string): string {
  return (createHash('sha256').update(`${salt}:${accountId}`).digest().readBigUInt64BE(0) % 10n ** 18n).toString().padStart(18, '1');
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Google's own checks of a LocalPost, the ones a client can trip. */
function checkLocalPost(body: Record<string, unknown>): void {
  const summary = body.summary;
  if (typeof summary !== 'string' || summary.trim() === '') throw invalid('summary', 'Summary is required.');
  if ([...summary].length > SUMMARY_MAX) throw invalid('summary', `Summary must be at most ${SUMMARY_MAX} characters.`);
  const topicType = body.topicType ?? 'STANDARD';
  if (!TOPIC_TYPES.includes(topicType as string)) throw invalid('topic_type', 'Invalid topic type.');
  if ((topicType === 'EVENT' || topicType === 'OFFER') && !isObject(body.event)) throw invalid('event', 'Event is required for this topic type.');
  if (isObject(body.event) && (typeof body.event.title !== 'string' || !isObject(body.event.schedule))) throw invalid('event.title', 'Event title and schedule are required.');
  if (body.offer !== undefined && topicType !== 'OFFER') throw invalid('offer', 'Offer is only allowed for OFFER posts.');
  if (body.callToAction !== undefined) {
    const cta = body.callToAction;
    if (!isObject(cta) || !ACTION_TYPES.includes(cta.actionType as string)) throw invalid('call_to_action.action_type', 'Invalid action type.');
    if (cta.actionType !== 'CALL' && (typeof cta.url !== 'string' || !/^https?:\/\//.test(cta.url))) throw invalid('call_to_action.url', 'A valid URL is required.');
  }
  if (body.media !== undefined) {
    if (!Array.isArray(body.media) || body.media.length > 10) throw invalid('media', 'Invalid media.');
    for (const item of body.media as unknown[]) {
      if (!isObject(item) || item.mediaFormat !== 'PHOTO' || typeof item.sourceUrl !== 'string' || !/^https?:\/\//.test(item.sourceUrl) || item.sourceUrl.length > 2048) {
        throw invalid('media.source_url', 'Each media item needs mediaFormat PHOTO and a sourceUrl.');
      }
    }
  }
}

export function sandboxGmbRoutes(deps: SandboxHost): Hono<SandboxEnv> {
  const routes = new Hono<SandboxEnv>();
  const store = () => sandboxStoreOf(deps.storage);

  answerOwnErrors(routes, GoogleError, (err, c) => {
    const details = err.violations.length > 0 ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: err.violations }] : undefined;
    return c.json({ error: { code: err.status, message: err.message, status: CANONICAL[err.status] ?? 'UNKNOWN', ...(details && { details }) } }, err.status as ContentfulStatusCode);
  });

  async function accountOf(c: Context<SandboxEnv>): Promise<string> {
    const accountId = await sandboxAccountOfBearer(deps, 'gmb', c.req.header('authorization'));
    if (!accountId) throw FAULTS['401']!();
    return accountId;
  }

  /** The `accounts/{n}/locations/{m}` of the path, checked to be the caller's. */
  async function locationOf(c: Context<SandboxEnv>): Promise<{ accountId: string; parent: string }> {
    const accountId = await accountOf(c);
    const { account, location } = c.req.param() as { account: string; location: string };
    if (account !== digitsOf(accountId, 'account') || location !== digitsOf(accountId, 'location')) throw FAULTS['403']!();
    return { accountId, parent: `accounts/${account}/locations/${location}` };
  }

  const localPostOf = (post: SandboxPost) => ({ ...post.record, state: 'LIVE' });

  routes.get('/mybusinessaccountmanagement/v1/accounts', async (c) => {
    const accountId = await accountOf(c);
    return c.json({ accounts: [{ name: `accounts/${digitsOf(accountId, 'account')}`, accountName: 'Sandbox business', type: 'PERSONAL', verificationState: 'VERIFIED' }] });
  });

  routes.get('/mybusinessbusinessinformation/v1/accounts/:account/locations', async (c) => {
    const accountId = await accountOf(c);
    if (c.req.param('account') !== digitsOf(accountId, 'account')) throw FAULTS['403']!();
    if (!c.req.query('readMask')) throw invalid('read_mask', 'Field is required.');
    return c.json({ locations: [{ name: `locations/${digitsOf(accountId, 'location')}`, title: 'Sandbox Bakery' }] });
  });

  const POSTS = '/mybusiness/v4/accounts/:account/locations/:location/localPosts';

  routes.post(POSTS, async (c) => {
    const { accountId, parent } = await locationOf(c);
    const body = (await c.req.json().catch(() => null)) as unknown;
    if (!isObject(body) || containsNul(body)) throw new GoogleError(400, 'Invalid JSON payload received.');
    checkLocalPost(body);
    const summary = body.summary as string;
    const marker = faultMarker(summary);
    if (marker) throw (FAULTS[marker] ?? (() => new GoogleError(400, `sandbox: gmb cannot produce fault ${marker} (see docs/sandbox-faults.md)`)))();
    const now = deps.clock();
    const name = `${parent}/localPosts/${randomInt(10 ** 9, 10 ** 10 - 1)}${randomInt(10 ** 9, 10 ** 10 - 1)}`;
    const time = new Date(now).toISOString();
    const media = Array.isArray(body.media) ? (body.media as { sourceUrl: string }[]) : [];
    const record = {
      name,
      languageCode: typeof body.languageCode === 'string' ? body.languageCode : 'en',
      summary,
      topicType: body.topicType ?? 'STANDARD',
      ...(isObject(body.callToAction) && { callToAction: body.callToAction }),
      ...(isObject(body.event) && { event: body.event }),
      ...(isObject(body.offer) && { offer: body.offer }),
      ...(media.length > 0 && { media: media.map((item, index) => ({ name: `${name}/media/${index}`, mediaFormat: 'PHOTO', sourceUrl: item.sourceUrl, googleUrl: item.sourceUrl })) }),
      searchUrl: `${deps.config.publicUrl}/sandbox/net/gmb/p/${encodeURIComponent(name)}`,
      createTime: time,
      updateTime: time,
    };
    const row = await store().insertPost({
      platform: 'gmb',
      accountId,
      networkId: name,
      clientKey: null,
      text: summary,
      media: media.map((item) => ({ url: item.sourceUrl, kind: 'image' })),
      record,
      status: 'published',
      error: null,
      createdAt: now,
      readyAt: now,
    });
    if (!row) throw FAULTS['500']!();
    return c.json({ ...record, state: 'LIVE' });
  });

  routes.get(POSTS, async (c) => {
    const { accountId } = await locationOf(c);
    const pageSize = Math.min(Math.max(Number(c.req.query('pageSize') ?? 20) || 20, 1), 100);
    // Google pages with `pageToken` (the `nextPageToken` of the page before), absent on the last page.
    const page = await store().pageForAccount('gmb', accountId, pageSize, c.req.query('pageToken') || null);
    return c.json({ localPosts: page.posts.map(localPostOf), ...(page.next && { nextPageToken: page.next }) });
  });

  routes.get(`${POSTS}/:post`, async (c) => {
    const { accountId, parent } = await locationOf(c);
    const post = await store().findByNetworkId('gmb', accountId, `${parent}/localPosts/${c.req.param('post')}`);
    if (!post) throw new GoogleError(404, 'Requested entity was not found.');
    return c.json(localPostOf(post));
  });

  routes.delete(`${POSTS}/:post`, async (c) => {
    const { accountId, parent } = await locationOf(c);
    const post = await store().findByNetworkId('gmb', accountId, `${parent}/localPosts/${c.req.param('post')}`);
    if (!post) throw new GoogleError(404, 'Requested entity was not found.');
    await store().markDeleted(post.id, deps.clock());
    return c.json({});
  });

  return routes;
}
