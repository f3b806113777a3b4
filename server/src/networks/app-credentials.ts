/**
 * @module
 * The integrator's own app on the networks whose calls sign with one (spec 5.6; a module's `appCredentials` hook,
 * module.ts), for the generic pipeline: which networks of a request need it, the pair each was sent (the network's
 * own refusal, 419, when missing) and the stored request's fields that keep it sealed. Features ask here and never
 * name a network.
 */
import { isNetwork, type Network } from '@social-link-kit/protocol';
import type { TokenCipher } from '../core/crypto/token-cipher.js';
import { networkModule } from './index.js';
import type { AppCredentials } from './module.js';

/** A request's header by name (Hono's `c.req.header`). */
export type HeaderReader = (name: string) => string | undefined;

/** The app a call to `platform` signs with, from the request's headers; null for a network that needs none. */
export function appCredentialsFor(platform: Network, header: HeaderReader, action: string): AppCredentials | null {
  return networkModule(platform).appCredentials?.ofHeaders(header, action) ?? null;
}

/** The app each network among `platforms` (unchecked names are skipped) signs with; throws when one is missing. */
export function appCredentialsOf(platforms: readonly unknown[], header: HeaderReader, action: string): Partial<Record<Network, AppCredentials>> {
  const apps: Partial<Record<Network, AppCredentials>> = {};
  for (const platform of new Set(platforms)) {
    if (typeof platform !== 'string' || !isNetwork(platform)) continue;
    const app = appCredentialsFor(platform, header, action);
    if (app) apps[platform] = app;
  }
  return apps;
}

/**
 * The fields a stored request keeps the apps of its networks in, sealed to the profile (opened only when the
 * network's adapter asks); empty when no network of `platforms` signs with the integrator's app.
 */
export function sealedAppFields(cipher: TokenCipher, profileId: string, platforms: readonly unknown[], header: HeaderReader, action: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [platform, app] of Object.entries(appCredentialsOf(platforms, header, action)) as [Network, AppCredentials][]) {
    Object.assign(fields, networkModule(platform).appCredentials!.sealedFields(cipher, profileId, app));
  }
  return fields;
}
