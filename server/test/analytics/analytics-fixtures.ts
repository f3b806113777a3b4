/**
 * Shared steps of the analytics and comments tests: publish through the real service to the sandbox networks,
 * switch a sandbox account's analytics fault, post as the audience.
 */
import assert from 'node:assert/strict';
import type { Network } from '@social-link-kit/protocol';
import type { TestService } from '../support/test-service.js';

let n = 0;
/** A text no earlier test posted (keeps the duplicate rule out of the way). */
export const freshText = (label: string) => `${label} ${++n} ${Date.now().toString(36)}${n * 7919}`;

/** Publishes now on `platform`; returns the service post id and the network post id. */
/** `youTubeVisibility`: the video's privacy (youtube's default, private, when unset); another channel sees only a public one. */
export async function publish(svc: TestService, platform: Network, headers: Record<string, string> = {}, options: { youTubeVisibility?: 'public' | 'unlisted' | 'private' } = {}) {
  const text = freshText(`Analytics on ${platform}`);
  const created = await svc.api('POST', '/post', { body: { post: text, platforms: [platform], ...networkNeeds(svc, platform, text, options.youTubeVisibility) }, headers });
  assert.equal(created.status, 200, JSON.stringify(created.json));
  assert.equal(created.json.status, 'success', JSON.stringify(created.json));
  return { id: created.json.id as string, networkPostId: created.json.postIds[0].id as string };
}

/** What a network's real adapter needs beside text: youtube and tiktok a video, instagram and pinterest a photo, reddit a title. */
function networkNeeds(svc: TestService, platform: Network, text: string, youTubeVisibility?: string): Record<string, unknown> {
  const photo = [`${svc.url}/sandbox/media/photo.jpg`];
  const video = [`${svc.url}/sandbox/media/video-3s.mp4`];
  if (platform === 'youtube') return { mediaUrls: video, isVideo: true, youTubeOptions: { title: text.slice(0, 90), ...(youTubeVisibility && { visibility: youTubeVisibility }) } };
  if (platform === 'tiktok') return { mediaUrls: video, isVideo: true, tikTokOptions: { visibility: 'public' } };
  if (platform === 'instagram' || platform === 'pinterest') return { mediaUrls: photo };
  if (platform === 'reddit') return { redditOptions: { title: text.slice(0, 90), subreddit: 'r/test' } };
  return {};
}

/** The sandbox account id the profile linked on `platform`. */
export async function sandboxAccountId(svc: TestService, platform: Network, profileId = svc.primaryProfile.id): Promise<string> {
  const { rows } = await svc.sql('SELECT network_user_id FROM social_accounts WHERE profile_id = ? AND platform = ?', [profileId, platform]);
  assert.equal(rows.length, 1);
  return rows[0]!.network_user_id as string;
}

/** Switches how the sandbox account's analytics fail: partial, down, 444, 475, limited, or null (work again). */
export async function setInsightsFault(svc: TestService, platform: Network, fault: string | null, profileId?: string) {
  const accountId = await sandboxAccountId(svc, platform, profileId);
  const response = await fetch(`${svc.url}/sandbox/net/${platform}/accounts/${encodeURIComponent(accountId)}/insights-fault`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({ fault }),
  });
  assert.equal(response.status, 200, await response.text());
}

/** Someone in the audience comments under a sandbox post. */
export async function audienceComment(svc: TestService, platform: Network, networkPostId: string, text: string, author = 'visitor-1') {
  const response = await fetch(`${svc.url}/sandbox/net/${platform}/p/${encodeURIComponent(networkPostId)}/audience-comments`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${svc.apiKey}` },
    body: JSON.stringify({ text, author }),
  });
  const answer = await response.text();
  assert.equal(response.status, 200, answer);
  return (JSON.parse(answer) as { id: string }).id;
}
