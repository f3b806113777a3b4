/**
 * Each real network's identity response, as its API documentation shows it, read by the definition table
 * (server/src/networks/definitions.ts): the account id is what the stored link is keyed on, so a wrong field here
 * would link every user of a network to the same row or fail every real connection.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INSTAGRAM_VIA_FACEBOOK, OAUTH_NETWORKS } from '../../src/networks/index.js';

/** Trimmed sample responses of each network's identity endpoint (field names as documented). */
const SAMPLES = {
  facebook: { body: { id: '10158', name: 'Ada Lovelace' }, id: '10158', displayName: 'Ada Lovelace' },
  instagram: { body: { user_id: '17841400', username: 'ada.lovelace', name: 'Ada', id: '17841400' }, id: '17841400', username: 'ada.lovelace' },
  linkedin: { body: { sub: 'x9Yc2Q', name: 'Ada Lovelace', given_name: 'Ada', email: 'ada@example.com' }, id: 'x9Yc2Q', displayName: 'Ada Lovelace' },
  twitter: { body: { data: { id: '2244994945', name: 'Ada', username: 'ada_l' } }, id: '2244994945', username: 'ada_l' },
  youtube: {
    body: { kind: 'youtube#channelListResponse', items: [{ id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw', snippet: { title: 'Ada Channel', customUrl: '@ada' } }] },
    id: 'UC_x5XG1OV2P6uZZ5FSM9Ttw',
    displayName: 'Ada Channel',
  },
  gmb: { body: { sub: '110169484474386276334', name: 'Ada L', email: 'ada@example.com' }, id: '110169484474386276334', displayName: 'Ada L' },
  tiktok: {
    body: { data: { user: { open_id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4', display_name: 'Ada', username: 'ada.tt' } }, error: { code: 'ok' } },
    id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4',
    displayName: 'Ada',
  },
  pinterest: { body: { account_type: 'BUSINESS', id: '549755885175', username: 'adapins', business_name: 'Ada Pins' }, id: '549755885175', username: 'adapins' },
  reddit: { body: { id: '1w72', name: 'ada_reddit', total_karma: 10 }, id: '1w72' },
  threads: { body: { id: '1234567890', username: 'ada.threads', name: 'Ada' }, id: '1234567890', username: 'ada.threads' },
  snapchat: {
    body: { request_status: 'SUCCESS', request_id: 'r1', me: { id: '2e6e7f4e-1c3a', display_name: 'Ada Snap', email: 'ada@example.com' } },
    id: '2e6e7f4e-1c3a',
    displayName: 'Ada Snap',
  },
} as const;

describe('real network identity parsing', () => {
  for (const [platform, sample] of Object.entries(SAMPLES)) {
    it(`${platform}: the account id (and a name) come from the documented response`, () => {
      const identity = OAUTH_NETWORKS[platform as keyof typeof OAUTH_NETWORKS].identity(sample.body);
      assert.equal(identity.id, sample.id);
      if ('displayName' in sample) assert.equal(identity.displayName, sample.displayName);
      if ('username' in sample) assert.equal(identity.username, sample.username);
    });
  }

  it('instagram through facebook reads the facebook identity', () => {
    assert.equal(INSTAGRAM_VIA_FACEBOOK.identity(SAMPLES.facebook.body).id, '10158');
    assert.ok(INSTAGRAM_VIA_FACEBOOK.scopes.some((scope) => scope.startsWith('instagram_')));
  });

  it('an identity response without an account id is an error, never an empty or shared id', () => {
    for (const definition of Object.values(OAUTH_NETWORKS)) {
      assert.throws(() => definition.identity({}));
      assert.throws(() => definition.identity({ error: { message: 'Invalid OAuth access token' } }));
    }
  });

  it('every definition uses https endpoints and states its client authentication', () => {
    for (const [platform, definition] of Object.entries(OAUTH_NETWORKS)) {
      for (const endpoint of [definition.authorizationEndpoint, definition.tokenEndpoint, definition.identityEndpoint]) {
        assert.equal(new URL(endpoint).protocol, 'https:', `${platform} ${endpoint}`);
      }
      assert.ok(['client_secret_post', 'client_secret_basic'].includes(definition.clientAuth));
      assert.ok(definition.scopes.length > 0, `${platform} has no scopes`);
    }
    // Networks that require PKCE for this kind of client.
    assert.equal(OAUTH_NETWORKS.twitter.pkce, true);
  });
});
