/**
 * Legacy JWT links (spec 5.5, 9): the integration key, verification of `jwt` links on the hosted page's API
 * (every rule has a negative test), their stand-in session being unreadable and unrevocable, the integration
 * reset, and the deprecated generateJWT operation.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT, decodeJwt, decodeProtectedHeader, exportJWK, exportSPKI, generateKeyPair, type CryptoKey } from 'jose';
import { ErrorCode } from '@social-link-kit/protocol';
import { LEGACY_AUDIENCE } from '../../src/linking/legacy-jwt/legacy-jwt-rules.js';
import { hashSecret } from '../../src/core/tokens.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { linkAccount } from '../../src/linking/service.js';

type Algorithm = 'RS256' | 'ES256' | 'EdDSA';
interface TestKey {
  alg: Algorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

async function newKey(alg: Algorithm): Promise<TestKey> {
  const pair = await generateKeyPair(alg, { extractable: true });
  return { alg, ...pair };
}

describe('legacy JWT links', () => {
  let svc: TestService;
  const keys = {} as Record<Algorithm, TestKey>;
  let otherKey: TestKey;

  before(async () => {
    svc = await startTestService();
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) keys[alg] = await newKey(alg);
    otherKey = await newKey('ES256');
  });
  after(() => svc.close());

  const nowSeconds = () => Math.floor(svc.clock() / 1000);

  async function register(key: TestKey) {
    const { status, json } = await svc.api('PUT', '/profiles/integration-key', { body: { publicKey: await exportJWK(key.publicKey) } });
    assert.equal(status, 200, JSON.stringify(json));
    assert.equal(json.algorithm, key.alg);
  }

  /** A valid token unless overridden; `undefined` in `claims` removes a claim. */
  async function sign(key: TestKey, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
    const iat = nowSeconds();
    const payload: Record<string, unknown> = { iss: 'dev', aud: LEGACY_AUDIENCE, sub: svc.primaryProfile.refId, iat, exp: iat + 600, ...claims };
    for (const name of Object.keys(payload)) if (payload[name] === undefined) delete payload[name];
    return new SignJWT(payload).setProtectedHeader({ alg: key.alg, ...header }).sign(key.privateKey);
  }

  async function view(jwt: string) {
    const response = await fetch(`${svc.url}/api/link/session`, { headers: { Authorization: `Bearer ${jwt}` } });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  }

  async function assertRefused(jwt: string, why: string) {
    const { status, json } = await view(jwt);
    assert.equal(status, 401, `${why}: expected 401, got ${status}`);
    assert.equal(json.code, ErrorCode.linkInvalid, why);
    assert.equal(json.message, 'This link has expired or is no longer valid. Ask for a new link.', why);
  }

  describe('accepted tokens', () => {
    for (const alg of ['RS256', 'ES256', 'EdDSA'] as const) {
      it(`opens the hosted page's session with a valid ${alg} token`, async () => {
        await register(keys[alg]);
        const jwt = await sign(keys[alg]);
        const { status, json } = await view(jwt);
        assert.equal(status, 200, JSON.stringify(json));
        assert.equal(json.title, svc.primaryProfile.title);
        assert.equal(json.expiresAt, new Date((nowSeconds() + 600) * 1000).toISOString());
        assert.equal(json.origin, null);
      });
    }

    it('never expires without exp (spec 5.5), and typ JWT is accepted', async () => {
      await register(keys.EdDSA);
      const jwt = await sign(keys.EdDSA, { exp: undefined }, { typ: 'JWT' });
      const { status, json } = await view(jwt);
      assert.equal(status, 200);
      assert.equal(json.expiresAt, '9999-12-31T00:00:00.000Z');
      svc.clock.advance(30 * 24 * 3600_000);
      assert.equal((await view(jwt)).status, 200);
    });

    it('accepts iat up to 60 s ahead of the service clock and a lifetime of exactly 2880 minutes', async () => {
      await register(keys.ES256);
      const iat = nowSeconds() + 55;
      assert.equal((await view(await sign(keys.ES256, { iat, exp: iat + 2880 * 60 }))).status, 200);
    });

    it('registers a PEM SPKI public key as well as a JWK', async () => {
      const pem = await exportSPKI(keys.RS256.publicKey);
      const { status, json } = await svc.api('PUT', '/profiles/integration-key', { body: { publicKey: pem } });
      assert.equal(status, 200);
      assert.equal(json.algorithm, 'RS256');
      assert.match(json.thumbprint, /^[A-Za-z0-9_-]{43}$/);
      assert.equal((await view(await sign(keys.RS256))).status, 200);
    });

    it('applies the allowedSocial claim to the networks the page offers', async () => {
      await register(keys.EdDSA);
      const { json } = await view(await sign(keys.EdDSA, { allowedSocial: ['twitter', 'youtube'] }));
      assert.deepEqual(json.networks.map((n: { platform: string }) => n.platform), ['twitter', 'youtube']);
    });
  });

  describe('the stand-in session', () => {
    it('is reused for the same token, never shows its id, and cannot be read or revoked through the API', async () => {
      await register(keys.EdDSA);
      const jwt = await sign(keys.EdDSA);
      const first = await view(jwt);
      assert.equal(first.json.sessionId, 'legacy');
      await view(jwt);
      const session = (await svc.storage.linking.findLinkSessionByTokenHash(hashSecret(jwt)))!;
      assert.equal(session.legacy, true);
      assert.ok(!JSON.stringify(first.json).includes(session.id));

      const read = await svc.api('GET', `/profiles/link-sessions/${session.id}`);
      assert.equal(read.status, 404);
      const revoke = await svc.api('DELETE', `/profiles/link-sessions/${session.id}`);
      assert.equal(revoke.status, 404);
      assert.equal((await view(jwt)).status, 200, 'the revoke attempt changed nothing');
    });

    it('carries the connect flow: an account linked through it is stored', async () => {
      await register(keys.EdDSA);
      const jwt = await sign(keys.EdDSA);
      await view(jwt);
      const session = (await svc.storage.linking.findLinkSessionByTokenHash(hashSecret(jwt)))!;
      const result = await linkAccount(svc.storage, 
        session.id,
        { profileId: svc.primaryProfile.id, platform: 'reddit', networkUserId: 'r1', displayName: 'R', username: 'r', tokensEncrypted: null, linkedAt: svc.clock() },
        svc.clock(),
      );
      assert.equal(result.stored, true);
      const { json } = await view(jwt);
      assert.equal(json.networks.find((n: { platform: string }) => n.platform === 'reddit').linked, true);
    });
  });

  describe('refused tokens (each answers 401 code 501 with the same message)', () => {
    beforeEach(async () => {
      await register(keys.ES256);
    });

    it('alg none', async () => {
      const unsecured = new UnsecuredJWT({ iss: 'dev', aud: LEGACY_AUDIENCE, sub: svc.primaryProfile.refId, iat: nowSeconds() }).encode();
      await assertRefused(`${unsecured}AAAA`, 'alg none with a made-up signature');
      await assertRefused(unsecured, 'alg none with an empty signature');
    });

    it('HS256 keyed with the public key (algorithm confusion)', async () => {
      const jwk = await exportJWK(keys.ES256.publicKey);
      const secret = new TextEncoder().encode(JSON.stringify(jwk));
      const forged = await new SignJWT({ iss: 'dev', aud: LEGACY_AUDIENCE, sub: svc.primaryProfile.refId, iat: nowSeconds() })
        .setProtectedHeader({ alg: 'HS256' })
        .sign(secret);
      await assertRefused(forged, 'HS256');
    });

    it('an allowed algorithm that is not the registered key\'s', async () => {
      await assertRefused(await sign(keys.RS256), 'RS256 token, ES256 key');
      await assertRefused(await sign(keys.EdDSA), 'EdDSA token, ES256 key');
    });

    it('a signature by another key, and a payload changed after signing', async () => {
      await assertRefused(await sign(otherKey), 'other key');
      const [head, , signature] = (await sign(keys.ES256)).split('.');
      const tampered = Buffer.from(JSON.stringify({ iss: 'dev', aud: LEGACY_AUDIENCE, sub: svc.primaryProfile.refId, iat: nowSeconds() })).toString('base64url');
      await assertRefused(`${head}.${tampered}.${signature}`, 'tampered payload');
    });

    it('iss missing or not a linking domain of the account', async () => {
      await assertRefused(await sign(keys.ES256, { iss: undefined }), 'no iss');
      await assertRefused(await sign(keys.ES256, { iss: 'other-domain' }), 'wrong iss');
    });

    it('aud missing or different', async () => {
      await assertRefused(await sign(keys.ES256, { aud: undefined }), 'no aud');
      await assertRefused(await sign(keys.ES256, { aud: 'https://someone-else.example' }), 'wrong aud');
    });

    it('sub missing, unknown, or a profile of another account', async () => {
      await assertRefused(await sign(keys.ES256, { sub: undefined }), 'no sub');
      await assertRefused(await sign(keys.ES256, { sub: 'no-such-ref' }), 'unknown sub');
      const other = await startTestService();
      try {
        // The other account has its own key; a token for its profile signed with this account's key fails.
        await other.api('PUT', '/profiles/integration-key', { body: { publicKey: await exportJWK(otherKey.publicKey) } });
        await assertRefused(await sign(keys.ES256, { sub: other.primaryProfile.refId }), 'sub of another account');
      } finally {
        await other.close();
      }
    });

    it('iat missing, or more than 60 s in the future', async () => {
      await assertRefused(await sign(keys.ES256, { iat: undefined }), 'no iat');
      const iat = nowSeconds() + 120;
      await assertRefused(await sign(keys.ES256, { iat, exp: iat + 600 }), 'iat in the future');
    });

    it('exp passed (no leeway), and expiry enforced by the service clock', async () => {
      await assertRefused(await sign(keys.ES256, { iat: nowSeconds() - 600, exp: nowSeconds() - 1 }), 'expired');
      await assertRefused(await sign(keys.ES256, { iat: nowSeconds() - 600, exp: nowSeconds() }), 'expires now');
      const jwt = await sign(keys.ES256, { exp: nowSeconds() + 120 });
      assert.equal((await view(jwt)).status, 200);
      svc.clock.advance(121_000);
      await assertRefused(jwt, 'expired while in use');
    });

    it('a non-numeric exp', async () => {
      await assertRefused(await sign(keys.ES256, { exp: 'tomorrow' }), 'exp not a number');
    });

    it('nbf more than 60 s in the future', async () => {
      await assertRefused(await sign(keys.ES256, { nbf: nowSeconds() + 120 }), 'nbf');
    });

    it('exp - iat over 2880 minutes is accepted (spec 5.5: it expires only by its exp) with a warning in the log', async () => {
      const iat = nowSeconds();
      const jwt = await sign(keys.ES256, { iat, exp: iat + 2880 * 60 + 1 });
      assert.equal((await view(jwt)).status, 200);
      assert.ok(svc.logLines.some((line) => line.includes('"level":"warn"') && /lifetime of 2880 minutes \(more than 2880\)/.test(line)));
      assert.ok(!svc.logLines.join('\n').includes(jwt), 'the JWT itself is never logged');
    });


    it('typ other than JWT', async () => {
      await assertRefused(await sign(keys.ES256, {}, { typ: 'at+jwt' }), 'typ at+jwt');
    });

    it('invalid allowedSocial or redirect claims', async () => {
      await assertRefused(await sign(keys.ES256, { allowedSocial: ['myspace'] }), 'unknown network');
      await assertRefused(await sign(keys.ES256, { redirect: 42 }), 'redirect not a string');
    });

    it('malformed and oversized tokens', async () => {
      await assertRefused('abc.def.ghi', 'garbage');
      await assertRefused(await sign(keys.ES256, { padding: 'x'.repeat(9000) }), 'over 8192 characters');
    });

    it('an account with no key registered', async () => {
      const other = await startTestService();
      try {
        const jwt = await sign(keys.ES256, { sub: other.primaryProfile.refId });
        const response = await fetch(`${other.url}/api/link/session`, { headers: { Authorization: `Bearer ${jwt}` } });
        assert.equal(response.status, 401);
      } finally {
        await other.close();
      }
    });
  });

  describe('integration key changes', () => {
    it('replacing the key ends links signed with the old one', async () => {
      await register(keys.ES256);
      const jwt = await sign(keys.ES256);
      assert.equal((await view(jwt)).status, 200);
      await register(keys.EdDSA);
      await assertRefused(jwt, 'old key');
    });

    it('the reset ends every JWT link for good, even if the same key is registered again', async () => {
      await register(keys.ES256);
      const used = await sign(keys.ES256, { exp: undefined });
      const unused = await sign(keys.ES256, { exp: undefined, jti: 'second' });
      assert.equal((await view(used)).status, 200);
      const reset = await svc.api('DELETE', '/profiles/integration-key');
      assert.deepEqual(reset.json, { status: 'success', reset: true });
      await assertRefused(used, 'after reset');
      await assertRefused(unused, 'after reset, never used');
      await register(keys.ES256);
      await assertRefused(used, 'same key registered again: the used link stays ended');
      assert.equal((await view(await sign(keys.ES256))).status, 200, 'new links work');
    });

    const invalidKeys: [string, () => Promise<unknown>][] = [
      ['a missing key', async () => undefined],
      ['text that is no key', async () => 'hello'],
      ['a private JWK', async () => exportJWK(keys.ES256.privateKey)],
      ['a symmetric JWK', async () => ({ kty: 'oct', k: 'c2VjcmV0' })],
      ['an RSA key under 2048 bits', async () => generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' })],
      ['a P-384 key', async () => generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey.export({ format: 'jwk' })],
      ['a JWK whose alg does not match', async () => ({ ...(await exportJWK(keys.ES256.publicKey)), alg: 'RS256' })],
      ['a PEM private key', async () => generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' })],
    ];
    for (const [name, make] of invalidKeys) {
      it(`refuses ${name} with 400 code 101`, async () => {
        const { status, json } = await svc.api('PUT', '/profiles/integration-key', { body: { publicKey: await make() } });
        assert.equal(status, 400);
        assert.equal(json.code, ErrorCode.badRequest);
        assert.deepEqual(json.details, { allowedAlgorithms: ['RS256', 'ES256', 'EdDSA'] });
      });
    }
  });
});

describe('POST /api/profiles/generateJWT (deprecated)', () => {
  let svc: TestService;
  before(async () => {
    svc = await startTestService();
  });
  after(() => svc.close());

  const view = async (jwt: string, service: TestService = svc) => {
    const response = await fetch(`${service.url}/api/link/session`, { headers: { Authorization: `Bearer ${jwt}` } });
    return { status: response.status, json: (await response.json()) as Record<string, any> };
  };

  it('returns a token and a ?jwt= link that the hosted page accepts; privateKey, logout and base64 are ignored', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { status, json } = await svc.api('POST', '/profiles/generateJWT', {
      body: { domain: 'dev', privateKey: privateKey.export({ format: 'pem', type: 'pkcs8' }), logout: true, base64: false },
    });
    assert.equal(status, 200, JSON.stringify(json));
    assert.deepEqual(Object.keys(json).sort(), ['emailSent', 'expiresIn', 'status', 'title', 'token', 'url']);
    assert.equal(json.emailSent, false);
    const url = new URL(json.url);
    assert.equal(`${url.origin}${url.pathname}`, svc.config.linkingUrl);
    assert.deepEqual([...url.searchParams.keys()], ['jwt', 'domain']);
    assert.equal(url.searchParams.get('jwt'), json.token);
    assert.equal(url.searchParams.get('domain'), 'dev');

    const header = decodeProtectedHeader(json.token);
    assert.equal(header.alg, 'EdDSA', 'signed by the service, not with the privateKey sent');
    const claims = decodeJwt(json.token);
    assert.equal(claims.iss, 'dev');
    assert.equal(claims.aud, LEGACY_AUDIENCE);
    assert.equal(claims.sub, svc.primaryProfile.refId);
    assert.equal(claims.exp! - claims.iat!, 5 * 60);
    assert.equal((await view(json.token)).status, 200);
  });

  it('links the profile chosen by Profile-Key and applies allowedSocial and expiresIn', async () => {
    const created = await svc.api('POST', '/profiles', { body: { title: 'Legacy user' } });
    const { json } = await svc.api('POST', '/profiles/generateJWT', {
      headers: { 'Profile-Key': created.json.profileKey },
      body: { domain: 'dev', allowedSocial: ['tiktok'], expiresIn: 60 },
    });
    assert.equal(json.title, 'Legacy user');
    const claims = decodeJwt(json.token);
    assert.equal(claims.exp! - claims.iat!, 3600);
    const page = await view(json.token);
    assert.equal(page.json.title, 'Legacy user');
    assert.deepEqual(page.json.networks.map((n: { platform: string }) => n.platform), ['tiktok']);
  });

  it('validates like a link session: domain required and known, expiresIn 1..2880, unknown fields refused', async () => {
    const cases: [unknown, number, number][] = [
      [{}, 400, ErrorCode.badRequest],
      [{ domain: 'elsewhere' }, 400, ErrorCode.domainInvalid],
      [{ domain: 'dev', expiresIn: 2881 }, 400, ErrorCode.badRequest],
      [{ domain: 'dev', allowedSocial: ['myspace'] }, 400, ErrorCode.allowedSocialInvalid],
      [{ domain: 'dev', origin: 'https://app.example' }, 400, ErrorCode.badRequest],
    ];
    for (const [body, status, code] of cases) {
      const response = await svc.api('POST', '/profiles/generateJWT', { body });
      assert.equal(response.status, status, JSON.stringify(body));
      assert.equal(response.json.code, code, JSON.stringify(body));
    }
  });

  it('needs max-pack to set expiresIn', async () => {
    const plain = await startTestService({ account: { maxPack: false } });
    try {
      const { status, json } = await plain.api('POST', '/profiles/generateJWT', { body: { domain: 'dev', expiresIn: 10 } });
      assert.equal(status, 403);
      assert.equal(json.code, ErrorCode.expiresInNeedsMaxPack);
    } finally {
      await plain.close();
    }
  });

  it('is ended by the integration reset; the next token uses a new key', async () => {
    const first = (await svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })).json;
    const before = (await svc.api('GET', '/profiles/integration-key')).json;
    assert.equal(before.service.algorithm, 'EdDSA');
    assert.equal((await view(first.token)).status, 200);
    await svc.api('DELETE', '/profiles/integration-key');
    assert.equal((await view(first.token)).status, 401);
    const second = (await svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })).json;
    assert.equal((await view(second.token)).status, 200);
    const afterReset = (await svc.api('GET', '/profiles/integration-key')).json;
    assert.notEqual(afterReset.service.thumbprint, before.service.thumbprint);
  });

  it('stores its private key sealed with the token cipher; an unreadable stored key is replaced, ending its links', async () => {
    const first = (await svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })).json;
    const row = (await svc.sql("SELECT account_id, private_jwk FROM integration_keys WHERE kind = 'service'")).rows[0]!;
    assert.match(row.private_jwk, /^v1\./, 'a cipher envelope, not a JWK');
    assert.doesNotMatch(await svc.databaseDump(), /"d"\s*:/, 'no private JWK member anywhere in the database');

    // A key written in plain JSON (before keys were sealed) or sealed with a retired cipher key cannot be opened.
    const plainJwk = JSON.stringify({ kty: 'OKP', crv: 'Ed25519', x: 'AAAA', d: 'BBBB' });
    await svc.sql("UPDATE integration_keys SET private_jwk = ? WHERE kind = 'service' AND account_id = ?", [plainJwk, row.account_id]);
    const second = (await svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })).json;
    assert.equal((await view(second.token)).status, 200);
    assert.equal((await view(first.token)).status, 401, 'links signed by the replaced key stop working');
    const replaced = (await svc.sql("SELECT private_jwk FROM integration_keys WHERE kind = 'service' AND account_id = ?", [row.account_id])).rows[0]!;
    assert.match(replaced.private_jwk, /^v1\./);

    // Several requests find the unreadable key at once: one replacement wins and every token verifies.
    await svc.sql("UPDATE integration_keys SET private_jwk = ? WHERE kind = 'service' AND account_id = ?", [plainJwk, row.account_id]);
    const raced = await Promise.all(Array.from({ length: 6 }, () => svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })));
    for (const response of raced) assert.equal((await view(response.json.token)).status, 200);
  });

  it('cannot be used for another service\'s account: tokens verify only against the issuing account\'s key', async () => {
    const other = await startTestService();
    try {
      const token = (await svc.api('POST', '/profiles/generateJWT', { body: { domain: 'dev' } })).json.token as string;
      assert.equal((await view(token, other)).status, 401);
    } finally {
      await other.close();
    }
  });
});
