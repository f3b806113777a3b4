/**
 * X API error bodies, as X answers them, → the spec's codes, one by one (classify.ts). The bodies are X's documented
 * problem objects and v1.1 error arrays.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyXError } from '../../src/networks/twitter/classify.js';
import type { XAnswer } from '../../src/networks/twitter/x-api.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const answer = (status: number, json: Record<string, unknown>, headers: Record<string, string> = {}): XAnswer => ({ status, json, headers: new Headers(headers) });

describe('classifyXError on recorded X error bodies', () => {
  it('401 Unauthorized, and locked (326) / suspended (64) / could not authenticate (32) → 272 with the network string', () => {
    for (const body of [
      { title: 'Unauthorized', type: 'about:blank', status: 401, detail: 'Unauthorized' },
      { errors: [{ code: 326, message: 'To protect our users from spam and other malicious activity, this account is temporarily locked.' }] },
      { errors: [{ code: 64, message: 'Your account is suspended and is not permitted to access this feature.' }] },
      { errors: [{ code: 32, message: 'Could not authenticate you.' }] },
    ]) {
      const status = 'status' in body ? 401 : 403;
      const failure = classifyXError(answer(status, body), NOW);
      assert.equal(failure.code, 272, JSON.stringify(body));
      assert.equal(failure.retryAvailable, false);
      assert.equal(typeof failure.details?.network, 'string');
    }
  });

  it('402 CreditsDepleted → 416, not retried', () => {
    const failure = classifyXError(
      answer(402, { title: 'CreditsDepleted', detail: 'Your enrolled account [1580661436470538240] does not have any credits to fulfill this request.', type: 'https://api.twitter.com/2/problems/credits' }),
      NOW,
    );
    assert.deepEqual([failure.code, failure.retryAvailable], [416, false]);
  });

  it('403 oauth1 app permissions with x-access-level: read → 417 with the level in details', () => {
    const failure = classifyXError(
      answer(403, { title: 'Forbidden', type: 'about:blank', status: 403, detail: 'Your client app is not configured with the appropriate oauth1 app permissions for this endpoint.' }, { 'x-access-level': 'read' }),
      NOW,
    );
    assert.deepEqual([failure.code, failure.details?.accessLevel], [417, 'read']);
  });

  it('403 client-not-enrolled → 423 legacy access', () => {
    const failure = classifyXError(
      answer(403, {
        client_id: '23385069',
        detail: 'When authenticating requests to the Twitter API v2 endpoints, you must use keys and tokens from a Twitter developer App that is attached to a Project.',
        registration_url: 'https://developer.twitter.com/en/docs/projects/overview',
        title: 'Client Forbidden',
        required_enrollment: 'Appropriate Level of API Access',
        reason: 'client-not-enrolled',
        type: 'https://api.twitter.com/2/problems/client-forbidden',
      }),
      NOW,
    );
    assert.equal(failure.code, 423);
  });

  it('403 duplicate content → 137; other 403s → 111 with the detail', () => {
    assert.equal(classifyXError(answer(403, { detail: 'You are not allowed to create a Tweet with duplicate content.', type: 'about:blank', title: 'Forbidden', status: 403 }), NOW).code, 137);
    const other = classifyXError(answer(403, { detail: 'You are not permitted to perform this action.', type: 'about:blank', title: 'Forbidden', status: 403 }), NOW);
    assert.deepEqual([other.code, other.retryAvailable, other.details?.network], [111, false, 'You are not permitted to perform this action.']);
  });

  it('429 → 364, retried after x-rate-limit-reset', () => {
    const reset = Math.floor(NOW / 1000) + 600;
    const failure = classifyXError(answer(429, { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 }, { 'x-rate-limit-reset': String(reset) }), NOW);
    assert.deepEqual([failure.code, failure.retryAvailable, failure.retryAfterMs], [364, true, 600_000]);
  });

  it('5xx and no answer → 111 retryable (connection failures); 400 invalid request → 111; 400 on media → 164', () => {
    const server = classifyXError(answer(503, { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank', status: 503 }), NOW);
    assert.deepEqual([server.code, server.retryAvailable], [111, true]);
    const none = classifyXError({ status: 0, headers: new Headers(), json: {}, transportError: 'connect ECONNREFUSED' }, NOW);
    assert.deepEqual([none.code, none.retryAvailable], [111, true]);
    const invalid = {
      errors: [{ parameters: { text: ['x'] }, message: 'Your Tweet text is too long.' }],
      title: 'Invalid Request',
      detail: 'One or more parameters to your request was invalid.',
      type: 'https://api.twitter.com/2/problems/invalid-request',
    };
    assert.equal(classifyXError(answer(400, invalid), NOW).code, 111);
    assert.equal(classifyXError(answer(400, { errors: [{ code: 324, message: 'media type unrecognized.' }] }), NOW, 'media').code, 164);
  });
});
