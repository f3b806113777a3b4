/**
 * @module
 * `ADMIN_TOKEN`: turns on the admin API (`/admin/api`) and, without `METRICS_PORT`, guards `/metrics`. Unset, both
 * answer 404 as if they did not exist. Use a long random value (e.g. `openssl rand -base64 32`).
 */
export interface AdminSettings {
  adminToken: string | null;
}

/** Shorter tokens are refused at start-up: a guessable admin token is worse than none. */
export const MIN_ADMIN_TOKEN_LENGTH = 24;

export function readAdminSettings(env: NodeJS.ProcessEnv): AdminSettings {
  const adminToken = env.ADMIN_TOKEN || null;
  if (adminToken !== null && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters long.`);
  }
  return { adminToken };
}
