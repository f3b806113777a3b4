/**
 * @module
 * Settings of the guarded fetch (core/guarded-fetch.ts), read from the environment:
 * - `OUTBOUND_ALLOW_PRIVATE_TARGETS`  `1` lets outbound requests (media downloads, network APIs) reach private,
 *                            loopback, link-local, … addresses (tests, private deployments). Off by default.
 * - `OUTBOUND_TIMEOUT_MS`    time limit of one request, all redirects and the body included (default 30000)
 * - `OUTBOUND_MAX_BYTES`     largest body read (default 100 MB: the largest video a network here takes by URL)
 */
export interface OutboundSettings {
  allowPrivateTargets: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
}

export function readOutboundSettings(env: NodeJS.ProcessEnv): OutboundSettings {
  return {
    allowPrivateTargets: env.OUTBOUND_ALLOW_PRIVATE_TARGETS === '1',
    timeoutMs: positive(env.OUTBOUND_TIMEOUT_MS, 30_000),
    maxBytes: positive(env.OUTBOUND_MAX_BYTES, 100 * 1024 * 1024),
    maxRedirects: 5,
  };
}

function positive(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}
