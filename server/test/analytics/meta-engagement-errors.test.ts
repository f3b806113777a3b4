/**
 * Graph error bodies as Meta sends them, on the calls made after a post is out (insights, comments, private replies)
 * → the spec's codes: 444 for facebook's page analytics throttle, 186 / 490 for what is not there, 490-495 for
 * refused private replies, relink for a revoked token.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyAnalyticsError, classifyCommentError, classifyPrivateReplyError } from '../../src/networks/meta/engagement-errors.js';
import { graphErrorOf, type GraphAnswer } from '../../src/networks/meta/graph.js';

function answer(status: number, code: number, subcode: number | undefined, message: string, retryAfterSeconds: number | null = null): Extract<GraphAnswer, { ok: false }> {
  const error = graphErrorOf({ error: { message, type: 'OAuthException', code, ...(subcode !== undefined && { error_subcode: subcode }), fbtrace_id: 'AbCdEf123' } });
  assert.ok(error);
  return { ok: false, status, error, retryAfterSeconds };
}

describe('analytics calls', () => {
  const throttles: [string, number][] = [
    ['(#80001) There have been too many calls to this Page account. Wait a bit and try again.', 80001],
    ['(#32) Page request limit reached', 32],
    ['(#4) Application request limit reached', 4],
    ['(#17) User request limit reached', 17],
  ];
  for (const [message, code] of throttles) {
    it(`facebook Graph ${code} is 444 (429, retry later, no relink)`, () => {
      const failure = classifyAnalyticsError('facebook', answer(400, code, undefined, message, 300));
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink, failure.retryAfterMs], [444, true, false, 300_000]);
    });
  }
  it('instagram and threads rate limits stay 429', () => {
    for (const platform of ['instagram', 'threads'] as const) assert.equal(classifyAnalyticsError(platform, answer(400, 4, undefined, 'Application request limit reached')).code, 429);
  });
  it('a revoked token asks for a relink; a 5xx is retryable; anything else is 101', () => {
    const revoked = classifyAnalyticsError('facebook', answer(400, 190, 460, 'Error validating access token: The session has been invalidated'));
    assert.deepEqual([revoked.code, revoked.relink], [401, true]);
    assert.deepEqual([classifyAnalyticsError('threads', answer(500, 2, undefined, 'Service temporarily unavailable')).code, true], [500, true]);
    assert.equal(classifyAnalyticsError('instagram', answer(400, 100, undefined, '(#100) The value must be a valid insights metric')).code, 101);
  });
});

describe('a permission the account was linked without', () => {
  it('(#10) and (#200) on analytics and comments ask for a relink', () => {
    const analytics = classifyAnalyticsError('facebook', answer(400, 10, undefined, '(#10) Application does not have permission for this action'));
    assert.deepEqual([analytics.code, analytics.relink, analytics.retryAvailable], [401, true, false]);
    const comments = classifyCommentError('instagram', answer(403, 200, undefined, '(#200) Permissions error'), 'post');
    assert.deepEqual([comments.code, comments.relink], [401, true]);
  });
});

describe('comments', () => {
  it('an object that does not exist is 186 for a post and 490 for a comment', () => {
    const gone = answer(400, 100, 33, 'Unsupported get request. Object with ID 123 does not exist, cannot be loaded due to missing permissions, or does not support this operation.');
    assert.equal(classifyCommentError('facebook', gone, 'post').code, 186);
    assert.equal(classifyCommentError('instagram', gone, 'comment').code, 490);
    assert.equal(classifyCommentError('threads', answer(404, 803, undefined, '(#803) Some of the aliases you requested do not exist'), 'comment').code, 490);
  });
});

describe('private replies', () => {
  const cases: [string, 'facebook' | 'instagram', Extract<GraphAnswer, { ok: false }>, number][] = [
    ['invalid comment id', 'instagram', answer(400, 100, 33, 'Invalid parameter: comment_id does not exist'), 490],
    ['comment_id named in the message', 'facebook', answer(400, 100, undefined, '(#100) Param recipient[comment_id] must be a valid comment ID'), 490],
    ['outside the 7-day window', 'facebook', answer(400, 10, 2018278, 'This message is sent outside of allowed window.'), 491],
    ['instagram window', 'instagram', answer(400, 10, 2534022, 'This message is sent outside of allowed window.'), 491],
    ['person not available', 'facebook', answer(400, 551, 1545041, 'This person isn\u2019t available right now.'), 491],
    ['missing permission', 'facebook', answer(403, 200, undefined, '(#200) Requires pages_messaging permission to manage the object'), 492],
    ['pages_messaging', 'facebook', answer(400, 230, undefined, '(#230) Requires pages_messaging permission to manage the object'), 492],
    ['hourly limit', 'instagram', answer(400, 613, undefined, 'Calls to this api have exceeded the rate limit.'), 493],
    ['app capability', 'instagram', answer(400, 3, undefined, 'Application does not have the capability to make this API call.'), 494],
    ['server error', 'facebook', answer(500, 1, undefined, 'An unknown error occurred'), 494],
    ['other per comment', 'instagram', answer(400, 100, 2018109, 'This comment cannot receive a private reply.'), 495],
  ];
  for (const [name, platform, recorded, code] of cases) {
    it(`${platform}: ${name} → ${code}, never retried`, () => {
      const failure = classifyPrivateReplyError(platform, recorded);
      assert.deepEqual([failure.code, failure.retryAvailable, failure.relink, failure.noAutoRetry], [code, false, false, true]);
      assert.equal(failure.details?.graphCode, recorded.error.code);
    });
  }
  it('a revoked token is a relink (the automation records auth_error)', () => {
    const failure = classifyPrivateReplyError('instagram', answer(400, 190, 463, 'Error validating access token: Session has expired'));
    assert.deepEqual([failure.code, failure.relink, failure.retryAvailable], [401, true, false]);
  });
});
