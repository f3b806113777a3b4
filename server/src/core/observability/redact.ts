/**
 * @module
 * The last line of defence before a log sink: whatever a message holds, shapes of the service's secrets are
 * replaced. The first line is never logging them at all (route patterns instead of paths, no query strings).
 */
const SECRET_SHAPES: [RegExp, string][] = [
  // API keys, profile keys, link tokens and other values from tokens.ts `newSecret` (43 base64url characters).
  [/\b(sk|pk)_[A-Za-z0-9_-]{20,}/g, '$1_[redacted]'],
  // Telegram bot tokens, in a path (`/bot<id>:<secret>/…`) or alone.
  [/\bbot\d+:[A-Za-z0-9_-]+/gi, 'bot[redacted]'],
  [/\b\d{5,}:[A-Za-z0-9_-]{30,}/g, '[redacted]'],
  // Secrets travelling in query strings or fragments.
  [/([?&#](?:session|jwt|token|code|state|ticket|access_token|refresh_token|key)=)[^&#\s"]*/gi, '$1[redacted]'],
  // Bearer credentials and JWTs.
  [/\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi, '$1[redacted]'],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
];

// Any other long random-looking run (a bare link token, a webhook path secret).
const LONG_RUN: [RegExp, string] = [/\b[A-Za-z0-9_-]{40,}\b/g, '[redacted]'];
const LONG_RUN_LENGTH = 40;

/**
 * Whether `text` has LONG_RUN_LENGTH characters of [A-Za-z0-9_-] in a row: a match of LONG_RUN needs that. One
 * pass over the text, where the regex retries from every character of every shorter run (a UUID request id on
 * every access line): that regex was most of the cost of a log line.
 */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const inRun =
      (code >= 97 && code <= 122) || // a-z
      (code >= 65 && code <= 90) || // A-Z
      (code >= 48 && code <= 57) || // 0-9
      code === 95 || // _
      code === 45; // -
    if (!inRun) run = 0;
    else if (++run >= LONG_RUN_LENGTH) return true;
  }
  return false;
}

export function redactSecrets(text: string): string {
  let result = text;
  for (const [shape, replacement] of SECRET_SHAPES) result = result.replace(shape, replacement);
  // Applied last, as before; only skipped where it cannot match.
  if (hasLongRun(result)) result = result.replace(LONG_RUN[0], LONG_RUN[1]);
  return result;
}
