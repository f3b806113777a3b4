/**
 * Test fixture: a sandbox account linked through `POST /api/sandbox/accounts`, and publish contexts for it as the
 * engine would build them (tokens opened with the service's cipher, refreshed tokens saved back, plain fetch on
 * loopback, the service clock). Plus a loopback media host serving real image bytes.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Network } from '@social-link-kit/protocol';
import { tokenAad } from '../../src/core/crypto/token-cipher.js';
import type { LinkedAccountRef, PlatformPost, PublishContext } from '../../src/networks/publish-adapter.js';
import type { TestService } from '../support/test-service.js';

export async function linkSandboxAccount(svc: TestService, platform: Network) {
  const linked = await svc.api('POST', '/sandbox/accounts', { body: { platform } });
  if (linked.status !== 200) throw new Error(`sandbox account: ${JSON.stringify(linked.json)}`);
  const stored = await svc.storage.linking.findSocialAccount(svc.primaryProfile.id, platform);
  if (!stored) throw new Error('no linked account stored');
  let tokens: Record<string, unknown> = stored.tokensEncrypted
    ? (JSON.parse(svc.tokenCipher.decrypt(stored.tokensEncrypted, tokenAad(svc.primaryProfile.id, platform, stored.networkUserId))) as Record<string, unknown>)
    : {};
  const saved: Record<string, unknown>[] = [];
  const account: LinkedAccountRef = {
    platform,
    accountId: stored.networkUserId,
    username: stored.username,
    displayName: stored.displayName,
    sandbox: true,
    tokens: async () => tokens,
    saveTokens: async (next) => {
      tokens = next;
      saved.push(next);
    },
  };
  const logs: { event: string; fields?: Record<string, unknown> }[] = [];
  const context = (baseUrl: string, post: Partial<PlatformPost> = {}): PublishContext => ({
    post: { platform, text: 'hello', mediaUrls: [], isVideo: false, options: {}, postId: 'post_1', attemptKey: `post_1:${platform}:1`, ...post },
    account,
    baseUrl,
    fetch: (url, init) => fetch(url, init),
    now: () => svc.clock(),
    log: (event, fields) => logs.push({ event, fields }),
  });
  return { account, stored, tokens: () => tokens, saved, logs, context, response: linked.json };
}

/** 1×1 PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

export async function startMediaHost(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://media').pathname;
    if (path === '/tiny.png') {
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': TINY_PNG.length }).end(TINY_PNG);
    } else if (path === '/big.png') {
      const big = Buffer.concat([TINY_PNG, Buffer.alloc(1_000_001)]);
      response.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': big.length }).end(big);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
