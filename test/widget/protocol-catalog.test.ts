/**
 * The network catalogue and the lists derived from it, and the OAuth popup's message schema (src/protocol).
 */
import { expect } from '@open-wc/testing';
import { MESSAGE_SOURCE, OAUTH_RESULT_EVENT, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import { ErrorCode } from '@social-link-kit/protocol/error-codes.js';
import {
  CONNECT_METHODS,
  NETWORK_CATALOG,
  NETWORK_LABELS,
  NETWORKS,
  UNLINKABLE_NETWORKS,
  connectMethodOf,
  isNetwork,
} from '@social-link-kit/protocol/networks/catalog.js';
import { parseOAuthResultMessage } from '@social-link-kit/protocol/oauth-result.js';

describe('network catalogue', () => {
  it('lists every network once, in catalogue order, each with a label and a known connect method', () => {
    expect(NETWORKS).to.deep.equal(Object.keys(NETWORK_CATALOG));
    for (const network of NETWORKS) {
      expect(NETWORK_LABELS[network]).to.be.a('string').and.not.equal('');
      expect(CONNECT_METHODS).to.include(connectMethodOf(network));
    }
  });

  it('gives the unlink operation its eleven networks, alphabetical', () => {
    expect(UNLINKABLE_NETWORKS).to.deep.equal([
      'bluesky',
      'facebook',
      'gmb',
      'instagram',
      'linkedin',
      'reddit',
      'telegram',
      'threads',
      'tiktok',
      'twitter',
      'youtube',
    ]);
  });

  it('knows its own names only, not inherited object keys', () => {
    expect(isNetwork('twitter')).to.equal(true);
    for (const value of ['Twitter', 'myspace', 'toString', '__proto__', 'constructor', '', 7, null]) {
      expect(isNetwork(value), String(value)).to.equal(false);
    }
  });
});

describe('oauth:result message', () => {
  const base = { source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, event: OAUTH_RESULT_EVENT, platform: 'facebook' };

  it('parses each outcome and fills in what the result page may leave out', () => {
    expect(parseOAuthResultMessage({ ...base, outcome: 'success' })).to.deep.equal({ ...base, outcome: 'success' });
    expect(parseOAuthResultMessage({ ...base, outcome: 'cancelled' })).to.deep.equal({ ...base, outcome: 'cancelled', reason: 'denied' });
    expect(parseOAuthResultMessage({ ...base, outcome: 'error', platform: undefined })).to.deep.equal({
      ...base,
      platform: undefined,
      outcome: 'error',
      code: ErrorCode.connectFailed,
      message: '',
    });
    expect(parseOAuthResultMessage({ ...base, outcome: 'error', code: 512, message: 'refused' })).to.include({ code: 512, message: 'refused' });
  });

  it('refuses anything else', () => {
    const forged: unknown[] = [
      null,
      'oauth:result',
      { ...base, outcome: 'maybe' },
      { ...base, source: 'other', outcome: 'success' },
      { ...base, version: 2, outcome: 'success' },
      { ...base, event: 'connect:success', outcome: 'success' },
      { ...base, platform: 'myspace', outcome: 'success' },
      { ...base, outcome: 'cancelled', reason: 'bored' },
      { ...base, outcome: 'error', code: 1.5 },
      { ...base, outcome: 'error', code: '513' },
      { ...base, outcome: 'error', message: 'x'.repeat(501) },
    ];
    for (const data of forged) expect(parseOAuthResultMessage(data), JSON.stringify(data)).to.equal(null);
  });
});
