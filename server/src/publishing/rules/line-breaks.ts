/**
 * @module
 * Line breaks per spec 4.9 rule 9. A break may arrive as LF, CRLF, CR or already as U+2063 + LF. On a network that
 * keeps line breaks, every break is written as U+2063 (invisible separator) + LF, which stops networks that trim
 * empty lines (instagram) from collapsing paragraphs. On a network without line breaks, each run of breaks (with the
 * spaces around it) becomes one space.
 */
import type { Network } from '@social-link-kit/protocol';
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';

export const INVISIBLE_SEPARATOR = '\u2063';

const ANY_BREAK = /\u2063?(?:\r\n|\r|\n)/g;
const BREAK_RUN = /[ \t]*(?:\u2063?(?:\r\n|\r|\n)[ \t]*)+/g;

export function applyLineBreaks(text: string, platform: Network): string {
  if (PUBLISHING_CAPABILITIES[platform].lineBreaks) return text.replace(ANY_BREAK, `${INVISIBLE_SEPARATOR}\n`);
  return text.replace(BREAK_RUN, ' ');
}

/** Plain LF breaks again (for comparing texts and for networks' own previews). */
export function removeLineBreakMarkers(text: string): string {
  return text.replace(ANY_BREAK, '\n');
}
