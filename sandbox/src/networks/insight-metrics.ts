/**
 * @module
 * What each sandbox network reports as post and account analytics, under the names the real network uses
 * (docs/analytics.md), and how the numbers grow: linearly with the service clock since the post (or the account's
 * first post), so a test that moves the clock sees them rise and snapshots taken later are never smaller.
 */
import type { GenericSandboxNetwork } from './generic-api.js';

/** Per metric: how much it grows per hour. */
type Rates = Record<string, number>;

export const POST_METRIC_RATES: Partial<Record<GenericSandboxNetwork, Rates>> = {
  facebook: { impressions: 120, reach: 90, reactions: 12, comments: 3, shares: 2, clicks: 8, videoViews: 30 },
  instagram: { impressions: 150, reach: 110, likes: 15, comments: 4, saved: 2, shares: 1, views: 60 },
  linkedin: { impressionCount: 80, uniqueImpressionsCount: 60, clickCount: 6, likeCount: 7, commentCount: 2, shareCount: 1 },
  threads: { views: 100, likes: 9, replies: 3, reposts: 2, quotes: 1, shares: 1 },
  tiktok: { viewCount: 300, likeCount: 25, commentCount: 5, shareCount: 3 },
  twitter: { impressionCount: 200, likeCount: 10, retweetCount: 3, replyCount: 2, quoteCount: 1, bookmarkCount: 1 },
  youtube: { viewCount: 90, likeCount: 8, commentCount: 2, favoriteCount: 0 },
};

/** What an instagram post from before the business conversion still reports. */
export const INSTAGRAM_LIMITED_METRICS = ['likes', 'comments'];

export const ACCOUNT_METRIC_RATES: Partial<Record<GenericSandboxNetwork, Rates>> = {
  facebook: { fanCount: 5, followersCount: 6 },
  instagram: { followersCount: 7, followsCount: 1, mediaCount: 0 },
  linkedin: { followerCount: 3, connectionCount: 1 },
  threads: { followersCount: 4 },
  tiktok: { followerCount: 12, followingCount: 1, likesCount: 30, videoCount: 0 },
  twitter: { followersCount: 5, followingCount: 1, tweetCount: 0, listedCount: 0 },
  youtube: { subscriberCount: 4, viewCount: 90, videoCount: 0 },
};

const HOUR_MS = 60 * 60 * 1000;

export function grownMetrics(rates: Rates, since: number, now: number, base = 0): Record<string, number> {
  const hours = Math.max(0, now - since) / HOUR_MS;
  return Object.fromEntries(Object.entries(rates).map(([name, rate]) => [name, base + Math.floor(rate * hours)]));
}
