/**
 * @module
 * LinkedIn's "little text format" for `commentary`: the characters `\ | { } @ [ ] ( ) < > # * _ ~` are reserved
 * and must be escaped with a backslash, or LinkedIn cuts or garbles the text after them. Hashtags are written as the
 * `{hashtag|\#|word}` template so they stay hashtags.
 */
const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export function escapeLittleText(text: string): string {
  return text
    .split(/(#[\p{L}\p{N}_]+)/u)
    .map((piece, index) => (index % 2 === 1 ? `{hashtag|\\#|${piece.slice(1).replace(RESERVED, (char) => `\\${char}`)}}` : piece.replace(RESERVED, (char) => `\\${char}`)))
    .join('');
}

/** Reads little text back to plain text (the sandbox stores what a member would see); stops at an unescaped reserved character, as LinkedIn's rendering does. */
export function readLittleText(commentary: string): { text: string; complete: boolean } {
  let text = '';
  for (let i = 0; i < commentary.length; i++) {
    const char = commentary[i]!;
    if (char === '\\' && i + 1 < commentary.length) {
      text += commentary[++i];
      continue;
    }
    if (char === '{') {
      const template = /^\{hashtag\|\\#\|((?:\\.|[^}\\])+)\}/u.exec(commentary.slice(i));
      if (template) {
        text += `#${template[1]!.replace(/\\(.)/g, '$1')}`;
        i += template[0].length - 1;
        continue;
      }
    }
    if (/[|{}@[\]()<>#*_~\\]/.test(char)) return { text, complete: false };
    text += char;
  }
  return { text, complete: true };
}
