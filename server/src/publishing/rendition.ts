/**
 * @module
 * Previews that are the truth: what the service would send to each network (text, thread parts, media after
 * conversion) and its `renditionHash`. `POST /api/validate/post` answers them; create, approve and unpause may carry
 * the hash back (`expectedRenditionHash`) and are refused, publishing nothing, when what would be sent differs.
 *
 * Nothing here renders: the text is the one the post service stores for the network (rich text, line breaks, auto
 * hashtags: rules/platform-text), links are shortened by short-links.ts's own link finder, the thread split is the
 * network module's own `threadParts` (its adapter's), and the media are post-media.ts's inspections with their conversion plan.
 *
 * The hash names what changed: `rh1.` then, per network (sorted), `<network>-<text hash><media hash>` (8 hex each),
 * so a refusal can say "twitter: text" rather than only "different".
 */
import { createHash } from 'node:crypto';
import type { Network } from '@social-link-kit/protocol';
import type { MediaRendition, PlatformRendition } from '@social-link-kit/protocol/publishing/post-api.js';
import type { z } from 'zod';
import { ApiError } from '../core/errors.js';
import type { PlatformPost } from '../networks/publish-adapter.js';
import { networkModule } from '../networks/index.js';
import { findLinks } from './short-links.js';

export type Rendition = z.infer<typeof PlatformRendition>;
export type Renditions = Partial<Record<Network, Rendition>>;
export type MediaSent = z.infer<typeof MediaRendition>;

/** A short link's code is drawn when the post is stored: the preview shows it as `…` and the hash ignores it. */
const SHORT_CODE = '…';

/** The text with each link as its short link (`shortenLinks`), as shortenLinksIn will write it. */
export function previewShortLinks(text: string, publicUrl: string): string {
  let result = text;
  for (const url of findLinks(text)) {
    if (url.startsWith(`${publicUrl}/s/`)) continue;
    result = result.split(url).join(`${publicUrl}/s/${SHORT_CODE}`);
  }
  return result;
}

/** What one network would receive. `post.text` is the stored (or to-be-stored) text of the network. */
export function renditionOf(post: Pick<PlatformPost, 'platform' | 'text' | 'options'>, media: MediaSent[], shorten: { publicUrl: string } | null): Rendition {
  const text = shorten ? previewShortLinks(post.text, shorten.publicUrl) : post.text;
  // Only a network that publishes long texts as threads splits one; every other network sends one post.
  const parts = networkModule(post.platform).threadParts?.({ ...post, text } as PlatformPost) ?? [text];
  return { text, parts, media };
}

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 8);

function withoutShortCodes(text: string, publicUrl: string): string {
  const prefix = `${publicUrl}/s/`;
  return text.split(prefix).map((piece, index) => (index === 0 ? piece : piece.replace(/^[A-Za-z0-9_…-]+/, SHORT_CODE))).join(prefix);
}

export function renditionHash(renditions: Renditions, publicUrl: string): string {
  const entries = Object.entries(renditions).sort(([a], [b]) => a.localeCompare(b));
  const segments = entries.map(([platform, r]) => {
    const text = digest({ text: withoutShortCodes(r!.text, publicUrl), parts: r!.parts.map((part) => withoutShortCodes(part, publicUrl)) });
    return `${platform}-${text}${digest(r!.media)}`;
  });
  return ['rh1', ...segments].join('.');
}

/** What differs between a preview's hash and the current renditions: `twitter: text`, `linkedin: media`, ... */
export function renditionChanges(expected: string, current: string): string[] {
  if (expected === current) return [];
  const parse = (hash: string) => new Map(hash.split('.').slice(1).map((segment) => [segment.slice(0, segment.lastIndexOf('-')), segment.slice(segment.lastIndexOf('-') + 1)]));
  if (!expected.startsWith('rh1.') && expected !== 'rh1') return ['the hash is not a renditionHash of this service'];
  const before = parse(expected);
  const now = parse(current);
  const changes: string[] = [];
  for (const [platform, hashes] of now) {
    const old = before.get(platform);
    if (old === undefined) changes.push(`${platform}: added`);
    else if (old !== hashes) {
      if (old.slice(0, 8) !== hashes.slice(0, 8)) changes.push(`${platform}: text`);
      if (old.slice(8) !== hashes.slice(8)) changes.push(`${platform}: media`);
    }
  }
  for (const platform of before.keys()) if (!now.has(platform)) changes.push(`${platform}: removed`);
  return changes.length > 0 ? changes : ['the renditions'];
}

/** Refuses (101, nothing stored or sent) when what would be sent is not what the preview showed. */
export function assertRendition(expected: string | undefined, renditions: Renditions, publicUrl: string): void {
  if (expected === undefined) return;
  const current = renditionHash(renditions, publicUrl);
  const changes = renditionChanges(expected, current);
  if (changes.length === 0) return;
  throw new ApiError(400, 101, `What would be sent differs from the preview (${changes.join(', ')}): nothing was published. Preview again (POST /api/validate/post) and confirm with the new renditionHash.`, {
    action: 'post',
    details: { field: 'expectedRenditionHash', changed: changes, renditionHash: current, renditions },
  });
}
