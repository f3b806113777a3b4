/**
 * @module
 * Abuse limits, from the environment with defaults sized for real use:
 * - `RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE` (120) per client IP, for every link-token use (hosted page API, page load)
 * - `RATE_LIMIT_SESSION_CREATE_PER_MINUTE` (300) per API key
 * - `RATE_LIMIT_CONNECT_STARTS_PER_SESSION` (20) connection attempts over a session's whole life
 * - `POST_CREATE_LOOP_SHARE` (10 %) and `POST_CREATE_QUEUE_MAX` (1,000): how `POST /api/post` is admitted while other
 *   requests arrive (core/http/admission.ts)
 * - `TRUST_PROXY_HOPS` (0): how many proxies in front add `X-Forwarded-For`; 0 ignores the header (it is spoofable)
 */
export interface LimitSettings {
  tokenLookupsPerMinute: number;
  sessionCreatesPerMinute: number;
  connectStartsPerSession: number;
  /** `POST_CREATE_LOOP_SHARE` as a fraction (0-1); 0 admits every create at once. */
  postCreateLoopShare: number;
  postCreateQueueMax: number;
  trustProxyHops: number;
}

export function readLimitSettings(env: NodeJS.ProcessEnv): LimitSettings {
  const int = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value >= 0 ? value : fallback;
  };
  return {
    tokenLookupsPerMinute: int('RATE_LIMIT_TOKEN_LOOKUPS_PER_MINUTE', 120),
    sessionCreatesPerMinute: int('RATE_LIMIT_SESSION_CREATE_PER_MINUTE', 300),
    connectStartsPerSession: int('RATE_LIMIT_CONNECT_STARTS_PER_SESSION', 20),
    // Already checked by settings-schema.ts: a number 0-100.
    postCreateLoopShare: (env.POST_CREATE_LOOP_SHARE === undefined ? 10 : Number(env.POST_CREATE_LOOP_SHARE)) / 100,
    postCreateQueueMax: int('POST_CREATE_QUEUE_MAX', 1000),
    trustProxyHops: int('TRUST_PROXY_HOPS', 0),
  };
}
