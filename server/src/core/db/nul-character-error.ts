/**
 * @module
 * PostgreSQL refuses a text value holding a NUL character (error 22021, "invalid byte sequence for encoding UTF8:
 * 0x00"); SQLite stores it. Such a value can only come from the request (a path parameter like `%00`, a query or
 * body field), so the app answers it as the client's mistake, with a 400, instead of a 500.
 */
export function isNulCharacterError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return code === '22021' && typeof message === 'string' && message.includes('0x00');
}
