/**
 * Address classification for webhook targets (webhooks/ip-address-class.ts) and the host rules built on it
 * (webhooks/target-host.ts): a table of addresses and the range each must land in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyIpAddress, isPublicIpAddress, type IpAddressClass } from '../../src/webhooks/ip-address-class.js';
import { ipLiteralOf, refuseHostBeforeLookup } from '../../src/webhooks/target-host.js';

const TABLE: [string, IpAddressClass][] = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.254', 'cgnat'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.10', 'documentation'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'documentation'],
  ['203.0.113.9', 'documentation'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  // IPv4 just outside those ranges is public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['9.255.255.255', 'public'],
  ['11.0.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['126.255.255.255', 'public'],
  ['128.0.0.0', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['192.167.255.255', 'public'],
  ['192.169.0.0', 'public'],
  ['223.255.255.255', 'public'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['fec0::1', 'private'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['ff02::1', 'multicast'],
  ['ff05::2', 'multicast'],
  ['2001:db8::1', 'documentation'],
  ['3fff::1', 'documentation'],
  ['2001::1', 'reserved'], // Teredo
  ['100::1', 'reserved'], // discard-only
  ['::2', 'reserved'],
  ['::127.0.0.1', 'reserved'], // deprecated IPv4-compatible
  ['4000::1', 'reserved'], // outside global unicast
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:80b::200e', 'public'],
  // IPv4 inside IPv6: judged by the IPv4 address
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
  ['::FFFF:10.1.2.3', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::7f00:1', 'loopback'], // NAT64
  ['64:ff9b::808:808', 'public'],
  ['2002:7f00:1::1', 'loopback'], // 6to4
  ['2002:c0a8:101::', 'private'],
  ['2002:808:808::1', 'public'],
  // not addresses
  ['localhost', 'not an IP address'],
  ['127.1', 'not an IP address'],
  ['', 'not an IP address'],
  ['1.2.3.256', 'not an IP address'],
];

describe('IP address classification', () => {
  for (const [address, expected] of TABLE) {
    it(`${address || '(empty)'} is ${expected}`, () => {
      assert.equal(classifyIpAddress(address), expected);
      assert.equal(isPublicIpAddress(address), expected === 'public');
    });
  }
});

describe('webhook host rules before any lookup', () => {
  it('reads IP literals out of URL hostnames, brackets included', () => {
    assert.equal(ipLiteralOf('[::1]'), '::1');
    assert.equal(ipLiteralOf(new URL('https://[::ffff:127.0.0.1]/').hostname), '::ffff:7f00:1');
    assert.equal(ipLiteralOf('10.0.0.1'), '10.0.0.1');
    assert.equal(ipLiteralOf('hooks.example'), null);
  });

  const refused: [string, string, IpAddressClass][] = [
    ['https://127.0.0.1/x', '127.0.0.1', 'loopback'],
    ['https://2130706433/', '127.0.0.1', 'loopback'], // the URL parser turns other IPv4 spellings into dotted quads
    ['https://0x7f.1/', '127.0.0.1', 'loopback'],
    ['https://127.0.0.1./', '127.0.0.1', 'loopback'],
    ['https://[::1]:8443/', '::1', 'loopback'],
    ['https://[::ffff:127.0.0.1]/', '::ffff:7f00:1', 'loopback'],
    ['https://10.0.0.1/', '10.0.0.1', 'private'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254', 'link-local'],
    ['https://[fd00::1]/', 'fd00::1', 'private'],
    ['https://localhost/', 'localhost', 'loopback'],
    ['https://LOCALHOST./', 'localhost.', 'loopback'],
    ['https://api.localhost/', 'api.localhost', 'loopback'],
    ['https://api.localhost./', 'api.localhost.', 'loopback'],
  ];
  for (const [url, host, range] of refused) {
    it(`refuses ${url} (${range})`, () => {
      assert.deepEqual(refuseHostBeforeLookup(new URL(url).hostname), { host, range });
    });
  }

  for (const url of ['https://hooks.example/', 'https://8.8.8.8/', 'https://[2606:4700:4700::1111]/', 'https://localhost.example/', 'https://mylocalhost/']) {
    it(`leaves ${url} to delivery`, () => {
      assert.equal(refuseHostBeforeLookup(new URL(url).hostname), null);
    });
  }
});
