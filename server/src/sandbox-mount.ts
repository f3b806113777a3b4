/**
 * @module
 * What the service hands the sandbox package when the sandbox is on (sandbox-host.ts): built from the app's
 * dependencies, once per service, so the fakes see this service's database, clock, settings and registry.
 */
import type { AppDeps } from './app-deps.js';
import { createGuardedFetch } from './core/guarded-fetch.js';
import { completeTelegramCode } from './linking/telegram-code.js';
import type { SandboxHost } from './sandbox-host.js';

/** What the host is built from. */
type HostDeps = Pick<AppDeps, 'config' | 'storage' | 'clock' | 'networks' | 'tokenCipher' | 'publishing'>;

/** One host per service (the app's routes and the job worker share it, and with it one guarded fetch). */
const hosts = new WeakMap<HostDeps, SandboxHost>();

export function sandboxHostOf(deps: HostDeps): SandboxHost {
  let host = hosts.get(deps);
  if (!host) hosts.set(deps, (host = buildHost(deps)));
  return host;
}

function buildHost(deps: HostDeps): SandboxHost {
  const { config, clock, storage, networks, tokenCipher, publishing } = deps;
  return {
    config,
    clock,
    storage,
    networks,
    tokenCipher,
    publishing,
    // The sandbox's own calls back to the app (TikTok's webhook) go to this service's origin and nowhere else.
    fetchOwnOrigin: createGuardedFetch({ ...config.outbound, allowedOrigins: () => [new URL(config.publicUrl).origin] }),
    completeTelegramCode: (code, chat, tokensFor) => completeTelegramCode(deps, code, chat, tokensFor),
  };
}
