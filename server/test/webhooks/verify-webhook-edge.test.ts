/**
 * `social-link-kit/webhooks.js` outside Node: bundled for a neutral platform (a `node:` import would fail the build)
 * and run in a fresh V8 context that has only what edge runtimes give (Web Crypto, TextEncoder/TextDecoder, atob,
 * btoa), where it must accept a delivery signed by the service's signer and refuse a tampered one.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { describe, it } from 'node:test';
import { build } from 'esbuild';
import { signStandardWebhook } from '../../src/webhooks/signature.js';

const ENTRY = fileURLToPath(new URL('../../../src/webhooks/index.ts', import.meta.url));

describe('verifyWebhook in an edge-like runtime', () => {
  it('bundles without Node built-ins and verifies in a context with Web APIs only', async () => {
    const bundle = await build({ entryPoints: [ENTRY], bundle: true, write: false, platform: 'neutral', format: 'iife', globalName: 'kit', logLevel: 'silent' });
    const context = createContext({ crypto: globalThis.crypto, TextEncoder, TextDecoder, atob, btoa });
    runInContext(bundle.outputFiles[0]!.text, context);
    assert.equal(runInContext('typeof process + typeof require + typeof Buffer', context), 'undefinedundefinedundefined');

    const secret = 'whsec_' + btoa('edge runtime secret of 32 bytes.');
    const body = '{"id":"evt_edge","action":"social","event":"link"}';
    const timestamp = Math.floor(Date.now() / 1000);
    const headers = { 'webhook-id': 'evt_edge', 'webhook-timestamp': String(timestamp), 'webhook-signature': await signStandardWebhook(secret, 'evt_edge', timestamp, body) };
    context.input = { body, headers, secret, tampered: body.replace('link', 'unlink') };
    const event = await runInContext('kit.verifyWebhook(input.body, input.headers, input.secret)', context);
    assert.equal(event.id, 'evt_edge');
    const refusal = await runInContext('kit.verifyWebhook(input.tampered, input.headers, input.secret).then(() => "accepted", (error) => error.reason)', context);
    assert.equal(refusal, 'bad-signature');
  });
});
