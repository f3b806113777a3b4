/**
 * @module
 * The addresses one delivery attempt may connect to. The receiver's hostname is resolved once per attempt
 * (every address, `dns.lookup` with `all: true`); if any of them is not public the attempt is refused, since a
 * name that also points inside our network could be steered there. The sender then connects only to these
 * vetted addresses (https-sender.ts pins them), so a second, different DNS answer (rebinding) is never used.
 * With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE_TARGETS, for tests and private deployments) nothing is refused,
 * but the addresses are still pinned.
 */
import { lookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { classifyIpAddress } from './ip-address-class.js';
import { ipLiteralOf, refuseHostBeforeLookup } from './target-host.js';

/** Every address of a hostname; injectable so tests can make a name resolve where they need it. */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolveHost: ResolveHost = (hostname) =>
  new Promise((resolve, reject) => {
    lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

export type TargetAddresses = { ok: true; addresses: LookupAddress[] } | { ok: false; error: string };

export async function resolveTargetAddresses(
  hostname: string,
  options: { allowPrivate: boolean; resolveHost: ResolveHost },
): Promise<TargetAddresses> {
  if (!options.allowPrivate) {
    const refusal = refuseHostBeforeLookup(hostname);
    if (refusal) return { ok: false, error: `refused: ${refusal.host} is not a public address (${refusal.range})` };
  }
  const literal = ipLiteralOf(hostname);
  if (literal) return { ok: true, addresses: [{ address: literal, family: isIP(literal) }] };

  let addresses: LookupAddress[];
  try {
    addresses = await options.resolveHost(hostname);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, error: `DNS lookup of ${hostname} failed: ${code ?? (error instanceof Error ? error.message : String(error))}` };
  }
  if (addresses.length === 0) return { ok: false, error: `DNS lookup of ${hostname} returned no address` };
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const range = classifyIpAddress(address);
      if (range !== 'public') return { ok: false, error: `refused: ${hostname} resolves to ${address}, not a public address (${range})` };
    }
  }
  return { ok: true, addresses };
}
