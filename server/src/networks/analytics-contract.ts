/**
 * @module
 * The optional part of the adapter contract for what happens after a post is out: post analytics, account
 * analytics, comments and replies. An adapter implements what its network has; the service answers "not
 * available" for the rest. Metrics keep the names the network itself reports (docs/analytics.md).
 */
import type { PublishContext, PublishFailure } from './publish-adapter.js';

/** A call about an account rather than one post: the publish context without its post. */
export type NetworkContext = Omit<PublishContext, 'post'>;

/** One post's analytics as the network answered. */
export interface PostAnalytics {
  /** The network post id asked for. */
  id: string;
  /** False when the network has no such post for this account (the service answers 186). */
  found: boolean;
  /** False for a youtube video of another channel: descriptive fields only, numeric metrics zero. */
  owned: boolean;
  /** Cumulative counts named as the network names them (e.g. twitter `impressionCount`, facebook `reactions`). */
  metrics: Record<string, number>;
  /** Metrics the network failed to give this time (the service fills them from stored data: `backfilledFrom`). */
  failedMetrics: string[];
  /** Descriptive fields (youtube title, tags, thumbnails…). */
  descriptive?: Record<string, unknown>;
  /** Instagram posts from before the account's conversion to business: the network gives fewer metrics. */
  limited?: boolean;
}

export interface AccountAnalytics {
  metrics: Record<string, number>;
  failedMetrics: string[];
}

export interface NetworkComment {
  /** The network's comment id. */
  id: string;
  text: string;
  /** The commenter's name on the network. */
  author: string;
  /** ISO 8601. */
  created: string;
  /** The comment this one answers, if any. */
  replyTo: string | null;
}

export interface AnalyticsAdapter {
  /** Analytics of up to 100 posts of the account, in one call where the network allows. */
  analytics?(ctx: NetworkContext, networkPostIds: string[]): Promise<PostAnalytics[] | PublishFailure>;
  /** Account-level analytics (followers and the like). */
  accountAnalytics?(ctx: NetworkContext): Promise<AccountAnalytics | PublishFailure>;
  /** Comments under a post, oldest first. */
  comments?(ctx: NetworkContext, networkPostId: string): Promise<NetworkComment[] | PublishFailure>;
  /** Replies to a comment under a post; returns the reply's id. */
  reply?(ctx: NetworkContext, networkPostId: string, commentId: string, text: string): Promise<{ kind: 'done'; id: string } | PublishFailure>;
  /** Sends the commenter a private message in answer to a comment (instagram, facebook); codes 490-495 on refusal. */
  privateReply?(ctx: NetworkContext, commentId: string, text: string): Promise<{ kind: 'done'; id: string } | PublishFailure>;
}
