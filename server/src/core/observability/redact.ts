/**
 * @module
 * The last line of defence before a log sink: whatever a message holds, shapes of the service's secrets are
 * replaced. The first line is never logging them at all (route patterns instead of paths, no query strings).
 */
/** A shape, its replacement, and a text every match contains (when there is one), checked first because it is cheaper. */
const SECRET_SHAPES: [RegExp, string, string?][] = [
  // API keys, profile keys, link tokens and other values from tokens.ts `newSecret` (43 base64url characters).
  [/\b(sk|pk)_[A-Za-z0-9_-]{20,}/g, '$1_[redacted]', 'k_'],
  // Telegram bot tokens, in a path (`/bot<id>:<secret>/…`) or alone.
  [/\bbot\d+:[A-Za-z0-9_-]+/gi, 'bot[redacted]', ':'],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}/g, '[redacted]', ':'],
  // Secrets travelling in query strings or fragments.
  [/([?&#](?:session|jwt|token|code|state|ticket|access_token|refresh_token|key)=)[^&#\s"]*/gi, '$1[redacted]', '='],
  // Bearer credentials and JWTs.
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]', 'eyJ'],
];

// Any other long random-looking run (a bare link token, a webhook path secret).
const LONG_RUN: [RegExp, string] = [/\b[A-Za-z0-9_-]{40,}\b/g, '[redacted]'];
const LONG_RUN_LENGTH = 40;

/** 1 for the characters of a long run ([A-Za-z0-9_-]), by character code. */
const IN_RUN = new Uint8Array(128);
for (const character of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-') IN_RUN[character.charCodeAt(0)] = 1;

/**
 * Whether `text` has LONG_RUN_LENGTH characters of [A-Za-z0-9_-] in a row: a match of LONG_RUN needs that. One
 * pass over the text, where the regex retries from every character of every shorter run (a UUID request id on
 * every access line): that regex was most of the cost of a log line.
 */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && IN_RUN[code] === 1) {
      if (++run >= LONG_RUN_LENGTH) return true;
    } else run = 0;
  }
  return false;
}

export function redactSecrets(text: string): string {
  let result = text;
  for (const [shape, replacement, contained] of SECRET_SHAPES) {
    if (contained === undefined || result.includes(contained)) result = result.replace(shape, replacement);
  }
  // Applied last, as before; only skipped where it cannot match.
  if (hasLongRun(result)) result = result.replace(LONG_RUN[0], LONG_RUN[1]);
  return result;
}
