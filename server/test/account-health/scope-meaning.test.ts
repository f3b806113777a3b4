/**
 * Granted scopes are compared with the needed ones by meaning (#28): networks report the same grant in other words
 * (comma or space separated, google's URL-prefixed names and its `userinfo.*` for `email`/`profile`, a broader scope
 * covering narrower ones); only a scope really missing counts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gmbLink } from '../../src/networks/gmb/link.js';
import { youtubeLink } from '../../src/networks/youtube/link.js';
import { missingScopes, scopeList, scopeMeaning } from '../../src/account-health/token-facts.js';

describe('scopes by meaning', () => {
  it('google reports email and profile as userinfo URLs: the gmb grant is complete', () => {
    const granted = scopeList('openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile https://www.googleapis.com/auth/business.manage');
    assert.deepEqual(missingScopes(granted, gmbLink.definition.scopes), []);
    assert.deepEqual(missingScopes(scopeList('openid email profile'), gmbLink.definition.scopes), ['https://www.googleapis.com/auth/business.manage']);
  });

  it('a broader youtube scope covers upload and read; a narrower one does not cover the broader', () => {
    assert.deepEqual(missingScopes(scopeList('https://www.googleapis.com/auth/youtube'), youtubeLink.definition.scopes), []);
    assert.deepEqual(missingScopes(scopeList('https://www.googleapis.com/auth/youtube.upload'), youtubeLink.definition.scopes), [
      'https://www.googleapis.com/auth/youtube.readonly',
    ]);
  });

  it('comma and space separated lists mean the same; a missing scope is still found', () => {
    const needed = ['user.info.basic', 'video.publish'];
    assert.deepEqual(missingScopes(scopeList('user.info.basic,video.publish'), needed), []);
    assert.deepEqual(missingScopes(scopeList('user.info.basic video.publish'), needed), []);
    assert.deepEqual(missingScopes(scopeList('user.info.basic'), needed), ['video.publish']);
    assert.deepEqual(missingScopes(null, needed), []);
    assert.equal(scopeMeaning(' https://www.googleapis.com/auth/youtube.upload '), 'youtube.upload');
  });
});
