/**
 * Malformed input to the gmb and snapchat sandbox endpoints, with a valid token, gets the network's own 4xx error
 * shape (Google's `{error: {code, message, status}}`, Snap's `{request_status: "ERROR", …}`), never a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkSandboxAccount } from '../sandbox/sandbox-adapter-context.js';

const BODIES = [
  '',
  'null',
  '[]',
  '"text"',
  '{',
  '{"summary":null}',
  '{"summary":"x","topicType":"EVENT"}',
  '{"summary":"x","media":[null,{"mediaFormat":"VIDEO"}],"callToAction":{"actionType":"BOOK"}}',
  `{"summary":"${'x'.repeat(1501)}"}`,
  '{"summary":"nul \\u0000 inside"}',
  '{"type":"IMAGE","key":"short","iv":1}',
  '{"media_id":{},"saved_stories":[{"snap_sources":null,"title":5}],"description":[]}',
  '--broken\r\nContent-Disposition: form-data; name="action"\r\n\r\nADD\r\n--broken',
];

describe('gmb and snapchat sandboxes refuse bad input with 4xx', () => {
  let svc: TestService;
  const targets: [string, string, Record<string, string>, 'google' | 'snap'][] = [];
  before(async () => {
    svc = await startTestService();
    const gmb = await linkSandboxAccount(svc, 'gmb');
    const snapchat = await linkSandboxAccount(svc, 'snapchat');
    const google = { Authorization: `Bearer ${gmb.tokens().accessToken}` };
    const snap = { Authorization: `Bearer ${snapchat.tokens().accessToken}` };
    const accounts = (await (await fetch(`${svc.url}/sandbox/gmb/mybusinessaccountmanagement/v1/accounts`, { headers: google })).json()) as { accounts: { name: string }[] };
    const account = accounts.accounts[0]!.name;
    const locations = (await (await fetch(`${svc.url}/sandbox/gmb/mybusinessbusinessinformation/v1/${account}/locations?readMask=name`, { headers: google })).json()) as { locations: { name: string }[] };
    const posts = `/sandbox/gmb/mybusiness/v4/${account}/${locations.locations[0]!.name}/localPosts`;
    const me = (await (await fetch(`${svc.url}/sandbox/snapchat/v1/me/public_profile`, { headers: snap })).json()) as { public_profile: { id: string } };
    const profile = `/sandbox/snapchat/v1/public_profiles/${me.public_profile.id}`;
    targets.push(
      ['POST', posts, google, 'google'],
      ['GET', `${posts}/999`, google, 'google'],
      ['DELETE', `${posts}/123`, google, 'google'],
      ['GET', '/sandbox/gmb/mybusinessbusinessinformation/v1/accounts/1/locations', google, 'google'],
      ['POST', posts, {}, 'google'],
      ['POST', `${profile}/media`, snap, 'snap'],
      ['POST', `${profile}/stories`, snap, 'snap'],
      ['POST', `${profile}/saved_stories`, snap, 'snap'],
      ['POST', `${profile}/spotlights`, snap, 'snap'],
      ['POST', `${profile}/reels`, snap, 'snap'],
      ['POST', '/sandbox/snapchat/v1/media/00000000-0000-4000-a000-000000000000/multipart-upload-v2', snap, 'snap'],
      ['POST', `${profile}/stories`, {}, 'snap'],
    );
  });
  after(() => svc.close());

  it('answers every malformed body with a 4xx in the network\'s error shape', async () => {
    for (const [method, path, headers, shape] of targets) {
      for (const body of BODIES) {
        const contentType = body.startsWith('--') ? 'multipart/form-data; boundary=broken' : 'application/json';
        const response = await fetch(`${svc.url}${path}`, { method, headers: { ...headers, 'Content-Type': contentType }, ...(method !== 'GET' && { body }) });
        assert.ok(response.status >= 400 && response.status < 500, `${method} ${path} ${body.slice(0, 40)} → ${response.status}`);
        const json = (await response.json()) as Record<string, any>;
        if (shape === 'google') assert.equal(typeof json.error?.status, 'string', JSON.stringify(json));
        else assert.equal(json.request_status, 'ERROR', JSON.stringify(json));
        if (method === 'GET' || method === 'DELETE') break;
      }
    }
  });
});
