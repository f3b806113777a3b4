/**
 * @module
 * What the host of a webhook URL says before any DNS lookup: an IP literal is judged by its range
 * (ip-address-class.ts), and `localhost` names (RFC 6761: `localhost` and every `*.localhost`, with or without
 * the trailing root dot) always mean this machine. Other names are judged after resolution, at delivery
 * (target-addresses.ts). Used by registration and by delivery, so both refuse the same hosts.
 */
import { isIP } from 'node:net';
import { classifyIpAddress, type IpAddressClass } from './ip-address-class.js';

export interface HostRefusal {
  /** The address or name refused. */
  host: string;
  range: Exclude<IpAddressClass, 'public'>;
}

/** The IP address a URL hostname spells (`[::1]` → `::1`), or null for a name. */
export function ipLiteralOf(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

/** Why the host is not public, judged from the hostname alone; null when it is public or only DNS can tell. */
export function refuseHostBeforeLookup(hostname: string): HostRefusal | null {
  const literal = ipLiteralOf(hostname);
  if (literal) {
    const range = classifyIpAddress(literal);
    return range === 'public' ? null : { host: literal, range };
  }
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return { host: hostname, range: 'loopback' };
  return null;
}
