/**
 * The widget's hand-written inbound check (src/widget/inbound-message.ts) must agree with the protocol's zod
 * schema (src/protocol/messages.ts): same lists, same result type (compile time), same verdict on every payload.
 */
import { expect } from '@open-wc/testing';
import { CANCEL_REASONS, parseLinkMessage, type LinkMessage } from '@social-link-kit/protocol/messages.js';
import { MESSAGE_SOURCE, PROTOCOL_VERSION } from '@social-link-kit/protocol/constants.js';
import { NETWORKS } from '@social-link-kit/protocol/networks.js';
import { parseInboundMessage, WIDGET_CANCEL_REASONS, WIDGET_NETWORKS } from '../../src/widget/inbound-message.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// Compile-time: both parsers promise the same type.
const sameResultType: Equal<ReturnType<typeof parseInboundMessage>, ReturnType<typeof parseLinkMessage>> = true;
const sameEventNames: Equal<
  LinkMessage['event'],
  'connect:ready' | 'connect:success' | 'connect:error' | 'connect:cancelled' | 'connect:disconnected' | 'connect:resize'
> = true;

const base = { source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, sessionId: 'sess_1' } as const;

const corpus: unknown[] = [
  { ...base, event: 'connect:ready' },
  { ...base, event: 'connect:ready', platform: 'twitter' },
  { ...base, event: 'connect:ready', extra: 1 },
  { ...base, event: 'connect:ready', platform: undefined },
  ...NETWORKS.map((platform) => ({ ...base, event: 'connect:success', platform })),
  { ...base, event: 'connect:success' },
  { ...base, event: 'connect:success', platform: 'myspace' },
  { ...base, event: 'connect:success', platform: 'Twitter' },
  { ...base, event: 'connect:success', platform: 'twitter', reason: 'x' },
  { ...base, event: 'connect:error', code: 513, message: 'failed' },
  { ...base, event: 'connect:error', code: 513, message: '' },
  { ...base, event: 'connect:error', code: 513, message: 'failed', platform: 'gmb', reason: 'token' },
  { ...base, event: 'connect:error', code: 513, message: 'failed', platform: undefined, reason: undefined },
  { ...base, event: 'connect:error', code: 513, message: 'x'.repeat(500) },
  { ...base, event: 'connect:error', code: 513, message: 'x'.repeat(501) },
  { ...base, event: 'connect:error', code: 513, message: 'failed', reason: 'r'.repeat(64) },
  { ...base, event: 'connect:error', code: 513, message: 'failed', reason: 'r'.repeat(65) },
  { ...base, event: 'connect:error', code: 513.5, message: 'failed' },
  { ...base, event: 'connect:error', code: '513', message: 'failed' },
  { ...base, event: 'connect:error', code: Number.NaN, message: 'failed' },
  { ...base, event: 'connect:error', code: Infinity, message: 'failed' },
  { ...base, event: 'connect:error', code: 2 ** 60, message: 'failed' },
  { ...base, event: 'connect:error', code: -1, message: 'failed' },
  { ...base, event: 'connect:error', message: 'failed' },
  { ...base, event: 'connect:error', code: 513, message: 7 },
  ...CANCEL_REASONS.map((reason) => ({ ...base, event: 'connect:cancelled', reason })),
  { ...base, event: 'connect:cancelled', reason: 'popup_closed', platform: 'reddit' },
  { ...base, event: 'connect:cancelled', reason: 'bored' },
  { ...base, event: 'connect:cancelled' },
  { ...base, event: 'connect:cancelled', reason: 'denied', platform: 'myspace' },
  ...NETWORKS.map((platform) => ({ ...base, event: 'connect:disconnected', platform })),
  { ...base, event: 'connect:disconnected' },
  { ...base, event: 'connect:disconnected', platform: 'myspace' },
  { ...base, event: 'connect:disconnected', platform: 'twitter', reason: 'x' },
  { ...base, event: 'connect:resize', height: 0 },
  { ...base, event: 'connect:resize', height: 612 },
  { ...base, event: 'connect:resize', height: 10000 },
  { ...base, event: 'connect:resize', height: 10001 },
  { ...base, event: 'connect:resize', height: -1 },
  { ...base, event: 'connect:resize', height: 1.5 },
  { ...base, event: 'connect:resize', height: '612' },
  { ...base, event: 'connect:resize' },
  { ...base, event: 'connect:resize', height: 612, platform: 'twitter' },
  { ...base, event: 'connect:done' },
  { ...base, event: 'toString' },
  { ...base, event: '__proto__' },
  { ...base, event: 7 },
  { source: MESSAGE_SOURCE, version: PROTOCOL_VERSION, event: 'connect:ready' },
  { ...base, source: 'other', event: 'connect:ready' },
  { ...base, version: '1', event: 'connect:ready' },
  { ...base, version: 2, event: 'connect:ready' },
  { ...base, sessionId: '', event: 'connect:ready' },
  { ...base, sessionId: 'x'.repeat(64), event: 'connect:ready' },
  { ...base, sessionId: 'x'.repeat(65), event: 'connect:ready' },
  { ...base, sessionId: 5, event: 'connect:ready' },
  null,
  undefined,
  0,
  'connect:ready',
  [],
  [{ ...base, event: 'connect:ready' }],
  new Date(),
  new Map([['event', 'connect:ready']]),
  Object.assign(Object.create(null), { ...base, event: 'connect:ready' }),
];

describe('widget inbound check agrees with the protocol schema', () => {
  it('uses the same network and cancel-reason lists', () => {
    expect(sameResultType && sameEventNames).to.equal(true);
    expect([...WIDGET_NETWORKS]).to.deep.equal([...NETWORKS]);
    expect([...WIDGET_CANCEL_REASONS]).to.deep.equal([...CANCEL_REASONS]);
  });

  it('gives the same verdict and value on every payload of the corpus', () => {
    for (const data of corpus) {
      const fromProtocol = parseLinkMessage(data);
      const fromWidget = parseInboundMessage(data);
      expect(fromWidget, JSON.stringify(data) ?? String(data)).to.deep.equal(fromProtocol);
    }
  });

  it('survives structured clone (what postMessage delivers)', () => {
    for (const data of corpus.filter((item) => !(item instanceof Map))) {
      const cloned: unknown = structuredClone(data);
      expect(parseInboundMessage(cloned)).to.deep.equal(parseLinkMessage(cloned));
    }
  });
});
