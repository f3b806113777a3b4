/**
 * The crash matrix's plan and its verdict, apart from the runner (crash-matrix.test.ts):
 * - `killPoints(network)`: every step boundary a publish to that network has, read from the protocol's network
 *   catalogue (a thread step where the network splits long text, a first-comment step where it takes one);
 * - `requestFor`: what each network needs to publish;
 * - `verdict`: from the service's records and the sandbox network's own rows, the duplicates (a post or comment on the
 *   network more often than the service has posts for it), the lost (a post recorded as published that the network
 *   does not have, or on the network while recorded as failed without `unconfirmed`), the stuck (not terminal) and
 *   the `unconfirmed` outcomes outside the documented cases.
 */
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';

export type KillPoint = 'after-prepare' | 'after-commit-started' | 'after-commit' | 'between-thread-parts' | 'inside-first-comment';

export function killPoints(network: Network): KillPoint[] {
  const caps = PUBLISHING_CAPABILITIES[network];
  return [
    'after-prepare',
    'after-commit-started',
    'after-commit',
    ...(caps.threads ? (['between-thread-parts'] as const) : []),
    ...(caps.firstComment.supported ? (['inside-first-comment'] as const) : []),
  ];
}

/**
 * Thread networks whose adapter has no step between parts yet (only twitter's calls `ctx.step('between-thread-parts')`):
 * their thread post runs, but no kill lands between its parts. Listed by the test, not hidden.
 */
export const NO_THREAD_STEP: readonly Network[] = ['bluesky', 'threads'];

/**
 * Networks whose commit runs in a later job, not inside the request (the container is still processing when the
 * request answers): their victims poll for due jobs, one at a time, and the kill is awaited past the answer.
 */
export const COMMIT_IN_A_JOB: readonly Network[] = ['instagram', 'threads', 'pinterest', 'tiktok'];

/** Networks that refuse a post equal to one the account already has (X, linkedin): no twin is possible there. */
export function refusesEqualContent(network: Network): boolean {
  return network === 'twitter' || network === 'linkedin';
}

/**
 * Where `unconfirmed` is the documented outcome (docs/publishing-guarantee.md): networks with no look-up (telegram's
 * send, tiktok's init) killed once the call may have started.
 */
export function unconfirmedAllowed(network: Network, point: KillPoint | null): boolean {
  return (network === 'telegram' || network === 'tiktok') && (point === 'after-commit-started' || point === 'after-commit');
}

/** A text long enough to be split into a thread on `network` (each sentence carries the post's token). */
function threadText(network: Network, token: string): string {
  const max = PUBLISHING_CAPABILITIES[network].text.max;
  const sentences: string[] = [];
  for (let i = 1; sentences.join(' ').length < max * 2.5; i++) sentences.push(`Part sentence ${i} of thread ${token}.`);
  return sentences.join(' ');
}

export interface PlannedPost {
  token: string;
  text: string;
  request: Record<string, unknown>;
}

/** The request for a post on `network` whose text holds `token`; `thread` makes it long, `comment` adds a first comment. */
export function requestFor(network: Network, token: string, url: string, options: { thread?: boolean; comment?: boolean; extraText?: string } = {}): PlannedPost {
  const text = options.thread ? threadText(network, token) : `Matrix post ${token}${options.extraText ?? ''}`;
  const photo = [`${url}/sandbox/media/photo.jpg`];
  const video = { mediaUrls: [`${url}/sandbox/media/video-3s.mp4`], isVideo: true };
  const extra: Partial<Record<Network, Record<string, unknown>>> = {
    instagram: { mediaUrls: photo },
    pinterest: { mediaUrls: photo, pinterestOptions: { title: `Pin ${token}` } },
    youtube: { ...video, youTubeOptions: { title: `Video ${token}` } },
    tiktok: { ...video, tikTokOptions: { visibility: 'public' } },
    // snapchat takes videos of 5 to 60 s.
    snapchat: { ...video, mediaUrls: [`${url}/sandbox/media/video-10s.mp4`] },
    reddit: { redditOptions: { title: `Title ${token}`, subreddit: 'test' } },
  };
  const request: Record<string, unknown> = { post: text, platforms: [network], ...extra[network] };
  if (options.comment) request.firstComment = { comment: `First comment ${token}` };
  return { token, text, request };
}

export interface ServicePost {
  token: string;
  status: string;
  network_post_id: string | null;
  error: string | null;
  first_comment: string | null;
  point: KillPoint | null;
}

export interface NetworkRow {
  network_id: string;
  text: string;
  /** The network id this row answers, where the network keeps it (a threads chain's later part names the one before). */
  reply_to?: string | null;
}

/** The ids `named`, and every row chained under one of them (a threads post records its head; its parts answer it). */
function withChainedParts(named: string[], copies: NetworkRow[]): string[] {
  const ids = [...named];
  for (let grew = true; grew; ) {
    grew = false;
    for (const copy of copies) {
      if (copy.reply_to && ids.some((id) => names(id, { network_id: copy.reply_to!, text: '' })) && !ids.includes(copy.network_id)) {
        ids.push(copy.network_id);
        grew = true;
      }
    }
  }
  return ids;
}

export interface Verdict {
  duplicates: string[];
  lost: string[];
  stuck: string[];
  unconfirmed: string[];
  unexpectedUnconfirmed: string[];
}

const isUnknown = (error: string | null) => error !== null && /"outcome":"unknown"/.test(error);
/** A recorded id names a network row: the same id, or an address ending in it (bluesky records `at://did/collection/rkey`). */
const names = (recorded: string, row: NetworkRow) => recorded === row.network_id || recorded.endsWith(`/${row.network_id}`);

/**
 * `posts`: the service's records of every post of the run (one network); `rows`: the network's posts and comments
 * (foreign twins left out). Posts may share a text (a twin): their copies are counted together.
 */
export function verdict(network: Network, posts: ServicePost[], rows: NetworkRow[], comments: NetworkRow[]): Verdict {
  const result: Verdict = { duplicates: [], lost: [], stuck: [], unconfirmed: [], unexpectedUnconfirmed: [] };
  const byToken = new Map<string, ServicePost[]>();
  for (const post of posts) byToken.set(post.token, [...(byToken.get(post.token) ?? []), post]);
  for (const [token, group] of byToken) {
    const copies = rows.filter((row) => row.text.includes(token));
    const recorded = group.flatMap((post) => (post.status === 'success' && post.network_post_id ? post.network_post_id.split(',') : []));
    // A thread is several rows of distinct texts: a duplicate is a text twice, or more whole posts than posts.
    const texts = new Map<string, number>();
    for (const copy of copies) texts.set(copy.text, (texts.get(copy.text) ?? 0) + 1);
    for (const [text, n] of texts) if (n > group.length) result.duplicates.push(`${network} ${token}: "${text.slice(0, 60)}" ×${n}`);
    for (const post of group) {
      if (post.status !== 'success' && post.status !== 'error') result.stuck.push(`${network} ${token} (${post.point ?? 'no kill'}): ${post.status}`);
      if (isUnknown(post.error)) {
        result.unconfirmed.push(`${network} ${post.point}`);
        if (!unconfirmedAllowed(network, post.point)) result.unexpectedUnconfirmed.push(`${network} ${token} (${post.point}): ${post.error}`);
      }
      for (const id of post.status === 'success' && post.network_post_id ? post.network_post_id.split(',') : []) {
        if (!copies.some((copy) => names(id, copy))) result.lost.push(`${network} ${token} (${post.point}): recorded ${id}, not on the network`);
      }
    }
    // A thread reported as partly published names the parts that are out (issue 30, case 5): they are not orphans.
    const partlyOut = group.flatMap((post) => (post.error ? ((JSON.parse(post.error) as { details?: { publishedIds?: string[] } }).details?.publishedIds ?? []) : []));
    const covered = withChainedParts([...recorded, ...partlyOut], copies);
    const orphans = copies.filter((copy) => !covered.some((id) => names(id, copy)));
    const unknownPosts = group.filter((post) => isUnknown(post.error)).length;
    if (orphans.length > unknownPosts && !group.some((post) => post.status === 'success' && post.network_post_id?.includes(','))) {
      result.lost.push(`${network} ${token}: on the network as ${orphans.map((o) => o.network_id).join(', ')} but recorded as failed`);
    }
    for (const post of group) {
      const comment = post.first_comment ? (JSON.parse(post.first_comment) as { status?: string; code?: number }) : null;
      if (!comment) continue;
      const copiesOfComment = comments.filter((row) => row.text === `First comment ${token}`).length;
      if (copiesOfComment > 1) result.duplicates.push(`${network} ${token}: first comment ×${copiesOfComment}`);
      // A tiktok comment waits for the video's processing on tiktok's side: `pending` is its answer (spec 4.9 rule 5).
      const settled = comment.status === 'success' || comment.status === 'error' || (network === 'tiktok' && comment.status === 'pending');
      if (!settled) result.stuck.push(`${network} ${token}: first comment ${comment.status}`);
      if (comment.status === 'success' && copiesOfComment !== 1) result.lost.push(`${network} ${token}: first comment recorded, not on the network`);
    }
  }
  return result;
}
