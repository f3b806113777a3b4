/**
 * @module
 * Rich-text facets of an app.bsky.feed.post: links and hashtags, with UTF-8 byte offsets (Bluesky counts facet
 * ranges in bytes, not characters). Mentions need a handle→DID lookup and are left as plain text.
 */
const LINK = /\bhttps?:\/\/[^\s<>"]+/giu;
const TRAILING = /[.,;:!?)\]}'"]+$/u;
const TAG = /(^|\s)#([^\s#\p{P}][^\s#]{0,63})/gu;

export interface Facet {
  index: { byteStart: number; byteEnd: number };
  features: ({ $type: 'app.bsky.richtext.facet#link'; uri: string } | { $type: 'app.bsky.richtext.facet#tag'; tag: string })[];
}

const bytesBefore = (text: string, index: number) => Buffer.byteLength(text.slice(0, index), 'utf8');

export function detectFacets(text: string): Facet[] {
  const facets: Facet[] = [];
  for (const match of text.matchAll(LINK)) {
    const uri = match[0].replace(TRAILING, '');
    const start = bytesBefore(text, match.index);
    facets.push({ index: { byteStart: start, byteEnd: start + Buffer.byteLength(uri, 'utf8') }, features: [{ $type: 'app.bsky.richtext.facet#link', uri }] });
  }
  for (const match of text.matchAll(TAG)) {
    const tag = match[2]!.replace(TRAILING, '');
    if (/^\d+$/.test(tag)) continue;
    const at = match.index + match[1]!.length;
    const start = bytesBefore(text, at);
    facets.push({ index: { byteStart: start, byteEnd: start + Buffer.byteLength(`#${tag}`, 'utf8') }, features: [{ $type: 'app.bsky.richtext.facet#tag', tag }] });
  }
  return facets.sort((a, b) => a.index.byteStart - b.index.byteStart);
}
