/**
 * The one table the journey suite is generated from: for each of the 13 networks, how the hosted page is opened
 * (the four modes spread across them), how the account is connected on the screens a person sees, what a post
 * needs there (media, options), and what the network lets the integrator do with it afterwards. The "supports"
 * columns follow docs/analytics.md (analytics, comments) and docs/network-limits.md (delete); pinterest and
 * snapchat cannot be unlinked through the API (src/protocol/networks/catalog.ts).
 */
import type { Network } from '@social-link-kit/protocol';

/** How the integrator shows the hosted page (README "2. Your page shows the link"). */
export type Mode = 'frame' | 'popup' | 'direct' | 'native';

/** What a person does on the hosted page to connect: the sandbox consent screen, a credential form, a bot code. */
export type Connect = 'consent' | 'app-password' | 'bot-code';

export interface Journey {
  network: Network;
  /** The name on the hosted page's "Connect <label>" button. */
  label: string;
  mode: Mode;
  connect: Connect;
  /** Sandbox media host files (`/sandbox/media/<file>`) the post carries; the network needs them. */
  media: string[];
  /** The post's network options (`<network>Options`) and flags beyond text and media. */
  extra: Record<string, unknown>;
  analytics: boolean;
  comments: boolean;
  delete: boolean;
  unlink: boolean;
  /** Its access tokens expire and are renewed with the refresh grant (README "token refresh"). */
  expiringToken: boolean;
}

type Row = [Network, string, Mode, Connect, string[], Record<string, unknown>, analytics: boolean, comments: boolean, del: boolean, unlink: boolean];

const ROWS: Row[] = [
  //  network       label                      mode      connect         media               extra                                                             anl    cmt    del    unlink
  ['facebook', 'Facebook', 'frame', 'consent', [], {}, true, true, true, true],
  ['instagram', 'Instagram', 'popup', 'consent', ['photo.jpg'], {}, true, true, false, true],
  ['linkedin', 'LinkedIn', 'direct', 'consent', [], {}, true, true, true, true],
  ['twitter', 'X (Twitter)', 'native', 'consent', [], {}, true, true, true, true],
  ['youtube', 'YouTube', 'frame', 'consent', ['video-10s.mp4'], { isVideo: true, youTubeOptions: { title: 'Journey video', visibility: 'public' } }, true, true, true, true],
  ['tiktok', 'TikTok', 'popup', 'consent', ['video-10s.mp4'], { isVideo: true }, true, false, false, true],
  ['pinterest', 'Pinterest', 'direct', 'consent', ['photo.jpg'], { pinterestOptions: { title: 'Journey pin' } }, false, false, true, false],
  ['reddit', 'Reddit', 'native', 'consent', [], { redditOptions: { title: 'Journey post', subreddit: 'test' } }, false, true, true, true],
  ['gmb', 'Google Business Profile', 'frame', 'consent', [], {}, false, false, true, true],
  ['threads', 'Threads', 'native', 'consent', [], {}, true, true, false, true],
  ['snapchat', 'Snapchat', 'direct', 'consent', ['photo.jpg'], {}, false, false, false, false],
  ['bluesky', 'Bluesky', 'frame', 'app-password', [], {}, false, true, true, true],
  ['telegram', 'Telegram', 'popup', 'bot-code', [], {}, false, false, true, true],
];

const EXPIRING_TOKENS: readonly Network[] = ['youtube', 'gmb', 'tiktok', 'linkedin', 'reddit', 'pinterest'];

export const JOURNEYS: Journey[] = ROWS.map(([network, label, mode, connect, media, extra, analytics, comments, del, unlink]) => ({
  network,
  label,
  mode,
  connect,
  media,
  extra,
  analytics,
  comments,
  delete: del,
  unlink,
  expiringToken: EXPIRING_TOKENS.includes(network),
}));
