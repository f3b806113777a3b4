/**
 * @module
 * Which kind of range an IP address is in, so webhooks are only sent to the public internet (no SSRF into the
 * service's own network). Follows the IANA special-purpose registries: an address is `public` only when it is
 * in none of the ranges below. IPv4 addresses embedded in IPv6 (IPv4-mapped `::ffff:a.b.c.d`, NAT64
 * `64:ff9b::/96`, 6to4 `2002::/16`) are judged by the IPv4 address they lead to. For IPv6 the rule is an
 * allow-list: only global unicast (`2000::/3`) can be public, so every range outside it is refused even if
 * not named here.
 */
import { isIP } from 'node:net';

export type IpAddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'multicast'
  | 'documentation'
  | 'reserved'
  | 'not an IP address';

interface Range {
  prefix: number[];
  bits: number;
  kind: Exclude<IpAddressClass, 'public' | 'not an IP address'>;
}

const IPV4_RANGES: readonly Range[] = [
  v4('0.0.0.0', 8, 'unspecified'), // "this network"; 0.0.0.0 reaches the local host on many systems
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'cgnat'), // shared address space (carrier-grade NAT)
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'), // includes cloud metadata (169.254.169.254)
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'), // IETF protocol assignments
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'), // deprecated 6to4 relay anycast
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'), // benchmarking
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'), // future use, and 255.255.255.255 broadcast
];

const IPV6_RANGES: readonly Range[] = [
  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'private'), // deprecated site-local
  v6('fc00::', 7, 'private'), // unique local
  v6('ff00::', 8, 'multicast'),
  v6('2001:db8::', 32, 'documentation'),
  v6('3fff::', 20, 'documentation'),
  v6('2001::', 23, 'reserved'), // IETF protocol assignments, Teredo included
];

const IPV4_MAPPED = v6('::ffff:0:0', 96, 'reserved');
const NAT64 = v6('64:ff9b::', 96, 'reserved');
const SIX_TO_FOUR = v6('2002::', 16, 'reserved');
const GLOBAL_UNICAST = v6('2000::', 3, 'reserved');

export function classifyIpAddress(address: string): IpAddressClass {
  // A zone index (fe80::1%eth0) can come back from DNS; it does not change the range.
  const bare = address.split('%')[0]!;
  const version = isIP(bare);
  if (version === 4) return classifyIpv4(ipv4Bytes(bare));
  if (version === 6) return classifyIpv6(ipv6Bytes(bare));
  return 'not an IP address';
}

export function isPublicIpAddress(address: string): boolean {
  return classifyIpAddress(address) === 'public';
}

function classifyIpv4(bytes: number[]): IpAddressClass {
  return IPV4_RANGES.find((range) => inRange(bytes, range))?.kind ?? 'public';
}

function classifyIpv6(bytes: number[]): IpAddressClass {
  if (inRange(bytes, IPV4_MAPPED) || inRange(bytes, NAT64)) return classifyIpv4(bytes.slice(12, 16));
  if (inRange(bytes, SIX_TO_FOUR)) return classifyIpv4(bytes.slice(2, 6));
  const named = IPV6_RANGES.find((range) => inRange(bytes, range));
  if (named) return named.kind;
  return inRange(bytes, GLOBAL_UNICAST) ? 'public' : 'reserved';
}

function inRange(bytes: number[], range: Range): boolean {
  if (bytes.length !== range.prefix.length) return false;
  for (let bit = 0; bit < range.bits; bit++) {
    const mask = 0x80 >> (bit % 8);
    if ((bytes[bit >> 3]! & mask) !== (range.prefix[bit >> 3]! & mask)) return false;
  }
  return true;
}

function v4(prefix: string, bits: number, kind: Range['kind']): Range {
  return { prefix: ipv4Bytes(prefix), bits, kind };
}

function v6(prefix: string, bits: number, kind: Range['kind']): Range {
  return { prefix: ipv6Bytes(prefix), bits, kind };
}

/** Dotted-quad text (already validated by isIP) to 4 bytes. */
function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

/** IPv6 text (already validated by isIP) to 16 bytes; handles `::` and a trailing dotted quad. */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const [a, b, c, d] = ipv4Bytes(tail) as [number, number, number, number];
    text = `${text.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = rest === undefined || rest === '' ? [] : rest.split(':');
  const zeros: string[] = rest === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].flatMap((group) => {
    const value = parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
}
