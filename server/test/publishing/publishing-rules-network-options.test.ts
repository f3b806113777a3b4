import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isWarning, validateNetworkOptions, type NetworkOptionsRequest } from '../../src/publishing/rules/network-options.js';

const reel = 'https://media.example/clip.mp4';
const codes = (platform: Parameters<typeof validateNetworkOptions>[0], request: NetworkOptionsRequest, geo?: boolean) =>
  validateNetworkOptions(platform, request, { geoRestrictionsEligible: geo }).map((issue) => issue.code);
const trial = (graduationStrategy: unknown, extra: Partial<NetworkOptionsRequest> = {}): NetworkOptionsRequest => ({
  mediaUrls: [reel],
  instagramOptions: { trialParams: { graduationStrategy } },
  ...extra,
});

describe('validateNetworkOptions: instagram trial reels', () => {
  it('accepts MANUAL and SS_PERFORMANCE with one .mp4 or .mov video', () => {
    assert.deepEqual(codes('instagram', trial('MANUAL')), []);
    assert.deepEqual(codes('instagram', trial('SS_PERFORMANCE', { mediaUrls: ['https://m.example/a/CLIP.MOV?sig=1'] })), []);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: ['https://m.example/stream/42'], isVideo: true })), []);
  });

  it('gives 447 when graduationStrategy is missing, null or empty', () => {
    for (const request of [trial(undefined), trial(null), trial(''), { mediaUrls: [reel], instagramOptions: { trialParams: null } }]) {
      assert.deepEqual(codes('instagram', request), [447]);
    }
  });

  it('gives 448 for any other value, echoing it cut to 64 characters', () => {
    for (const value of ['manual', 'MANUAL ', 'OTHER', 7, ['MANUAL']]) assert.deepEqual(codes('instagram', trial(value)), [448], String(value));
    const [issue] = validateNetworkOptions('instagram', trial('X'.repeat(100)));
    assert.ok(issue);
    assert.equal(issue.code, 448);
    assert.equal(issue.field, 'instagramOptions.trialParams.graduationStrategy');
    assert.deepEqual(issue.details, { received: 'X'.repeat(64) });
  });

  it('gives 449 for a carousel, an image, no media or a story', () => {
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: [reel, reel] })), [449]);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: ['https://m.example/p.jpg'] })), [449]);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: ['https://m.example/p.jpg'], isVideo: true })), [449]);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: [] })), [449]);
    assert.deepEqual(
      codes('instagram', { mediaUrls: [reel], instagramOptions: { trialParams: { graduationStrategy: 'MANUAL' }, stories: true } }),
      [449],
    );
  });

  it('reads the per-platform media of the object form, falling back to default', () => {
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: { instagram: [reel], default: [reel, reel] } })), []);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: { twitter: [reel], default: [reel] } })), []);
    assert.deepEqual(codes('instagram', trial('MANUAL', { mediaUrls: { twitter: [reel] } })), [449]);
  });

  it('applies nothing without trialParams', () => {
    assert.deepEqual(codes('instagram', { instagramOptions: { stories: true } }), []);
    assert.deepEqual(codes('instagram', {}), []);
  });
});

describe('validateNetworkOptions: instagram audio', () => {
  it('gives 101 for volumes that are not integers 0-100, null or numeric strings included', () => {
    for (const value of [null, '50', 50.5, -1, 101, true, Number.NaN]) {
      assert.deepEqual(codes('instagram', { instagramOptions: { audioVolume: value } }), [101], String(value));
      assert.deepEqual(codes('instagram', { instagramOptions: { videoVolume: value } }), [101], String(value));
    }
    assert.deepEqual(codes('instagram', { instagramOptions: { audioVolume: 0, videoVolume: 100 } }), []);
  });

  it('warns 518 when audioConfiguration and audioName come together', () => {
    const issues = validateNetworkOptions('instagram', { instagramOptions: { audioConfiguration: { id: 1 }, audioName: 'song' } });
    assert.deepEqual(issues.map((i) => i.code), [518]);
    assert.ok(issues[0] && isWarning(issues[0]));
    assert.deepEqual(codes('instagram', { instagramOptions: { audioName: 'song' } }), []);
  });
});

describe('validateNetworkOptions: pinterest, threads, twitter', () => {
  it('warns 521 for aiDisclosures outside AI_MODIFIED and SYNTHETIC_PERFORMER', () => {
    assert.deepEqual(codes('pinterest', { pinterestOptions: { aiDisclosures: ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'] } }), []);
    assert.deepEqual(codes('pinterest', { pinterestOptions: { aiDisclosures: [] } }), []);
    for (const value of [['ai_modified'], 'AI_MODIFIED', null, [1]]) {
      const issues = validateNetworkOptions('pinterest', { pinterestOptions: { aiDisclosures: value } });
      assert.deepEqual(issues.map((i) => i.code), [521], String(value));
      assert.ok(issues[0] && isWarning(issues[0]));
    }
  });

  it('gives 101 for allowCountries that are malformed or from an ineligible account', () => {
    assert.deepEqual(codes('threads', { threadsOptions: { allowCountries: ['US', 'DE'] } }, true), []);
    assert.deepEqual(codes('threads', { threadsOptions: { allowCountries: ['US'] } }, false), [101]);
    assert.deepEqual(codes('threads', { threadsOptions: { allowCountries: ['US'] } }), [101]);
    for (const value of [[], ['usa'], ['us'], 'US', null]) {
      assert.deepEqual(codes('threads', { threadsOptions: { allowCountries: value } }, true), [101], String(value));
    }
  });

  it('gives 101 for twitter flags that are not booleans', () => {
    assert.deepEqual(codes('twitter', { twitterOptions: { longPost: true, longVideo: false, subscribersOnly: true } }), []);
    assert.deepEqual(codes('twitter', { twitterOptions: { longPost: 'true', longVideo: null } }), [101, 101]);
  });

  it('does not apply one network options to another', () => {
    const request: NetworkOptionsRequest = { instagramOptions: { audioVolume: 500 }, threadsOptions: { allowCountries: 'x' } };
    assert.deepEqual(codes('twitter', request), []);
    assert.deepEqual(codes('facebook', request), []);
  });
});
