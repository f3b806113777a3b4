/**
 * Graph error bodies as Meta sends them (facebook, instagram, threads) → the spec's codes, one by one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyContainerError, classifyGraphError } from '../../src/networks/meta/classify.js';
import { graphErrorOf, type GraphAnswer } from '../../src/networks/meta/graph.js';

function answer(status: number, body: unknown, retryAfterSeconds: number | null = null): Extract<GraphAnswer, { ok: false }> {
  const error = graphErrorOf(body);
  assert.ok(error, 'a Graph error body');
  return { ok: false, status, error, retryAfterSeconds };
}

const body = (code: number, subcode: number | undefined, message: string, extra: Record<string, unknown> = {}) => ({
  error: { message, type: 'OAuthException', code, ...(subcode !== undefined && { error_subcode: subcode }), fbtrace_id: 'AbCdEf123', ...extra },
});

describe('Graph error bodies → spec codes', () => {
  const cases: [string, 'facebook' | 'instagram' | 'threads', number, unknown, number | null, { code: number; retryAvailable: boolean; relink: boolean; retryAfterMs?: number }][] = [
    ['expired token', 'facebook', 400, body(190, 463, 'Error validating access token: Session has expired'), null, { code: 401, retryAvailable: false, relink: true }],
    ['password changed', 'instagram', 400, body(190, 460, 'Error validating access token: The session has been invalidated because the user changed their password'), null, { code: 401, retryAvailable: false, relink: true }],
    ['app rate limit', 'facebook', 400, body(4, undefined, 'Application request limit reached'), null, { code: 429, retryAvailable: true, relink: false, retryAfterMs: 60_000 }],
    ['page rate limit with Retry-After', 'facebook', 400, body(32, undefined, 'Page request limit reached'), 120, { code: 429, retryAvailable: true, relink: false, retryAfterMs: 120_000 }],
    ['temporary', 'facebook', 500, body(2, undefined, 'An unexpected error has occurred. Please retry your request later.', { is_transient: true }), null, { code: 500, retryAvailable: true, relink: false }],
    ['community standards', 'facebook', 400, body(368, undefined, 'The action attempted has been deemed abusive or is otherwise disallowed'), null, { code: 249, retryAvailable: false, relink: false }],
    ['page restriction', 'facebook', 400, body(368, 1390008, 'You cannot post right now'), null, { code: 476, retryAvailable: false, relink: false }],
    ['invalid parameter', 'facebook', 400, body(100, undefined, '(#100) Invalid parameter'), null, { code: 101, retryAvailable: false, relink: false }],
    ['instagram publishing limit', 'instagram', 400, body(9, 2207042, 'Application request limit reached', { error_user_title: 'Max posts reached' }), 3600, { code: 435, retryAvailable: true, relink: false, retryAfterMs: 3_600_000 }],
    ['instagram account state', 'instagram', 400, body(9, 2207085, 'Account state error'), null, { code: 258, retryAvailable: true, relink: false }],
    ['instagram account restricted', 'instagram', 400, body(9, 2207050, 'The Instagram account is restricted'), null, { code: 258, retryAvailable: false, relink: false }],
    ['instagram media download timeout', 'instagram', 400, body(-2, 2207003, 'Timeout'), null, { code: 440, retryAvailable: true, relink: false }],
    ['instagram fetch blocked', 'instagram', 400, body(9004, 2207052, 'Media download has failed. The media URI doesn’t meet our requirements.'), null, { code: 138, retryAvailable: false, relink: false }],
    ['instagram aspect ratio', 'instagram', 400, body(36003, 2207009, 'The submitted image with aspect ratio 0.3 cannot be published'), null, { code: 138, retryAvailable: false, relink: false }],
    ['threads not ready', 'threads', 400, body(24, 4279009, 'Media Not Found'), null, { code: 522, retryAvailable: true, relink: false }],
    ['threads other', 'threads', 400, body(100, 4279001, 'Invalid parameter'), null, { code: 379, retryAvailable: false, relink: false }],
  ];
  for (const [name, platform, status, recorded, retryAfter, expected] of cases) {
    it(`${platform}: ${name}`, () => {
      const result = classifyGraphError(platform, answer(status, recorded, retryAfter));
      assert.deepEqual({ code: result.code, retryAvailable: result.retryAvailable, relink: result.relink, ...(result.retryAfterMs !== undefined && { retryAfterMs: result.retryAfterMs }) }, expected);
    });
  }

  it('435 passes Retry-After in details; the token never appears', () => {
    const result = classifyGraphError('instagram', answer(400, body(9, 2207042, 'limit'), 1800));
    assert.equal(result.details?.retryAfter, 1800);
  });

  it('a container status text carries its subcode', () => {
    assert.equal(classifyContainerError('instagram', 'Error: Media upload has failed with error code 2207003').code, 440);
    assert.equal(classifyContainerError('instagram', 'Error: something else').code, 138);
  });

  it('bodies that are not Graph errors are not read as one', () => {
    assert.equal(graphErrorOf({ data: [] }), null);
    assert.equal(graphErrorOf(null), null);
  });
});
