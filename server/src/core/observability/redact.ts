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
  // Any other long random-looking run (a bare link token, a webhook path secret).
  [/\b[A-Za-z0-9_-]{40,}\b/g, '[redacted]'],
];

export function redactSecrets(text: string): string {
  let result = text;
  for (const [shape, replacement] of SECRET_SHAPES) result = result.replace(shape, replacement);
  return result;
}
