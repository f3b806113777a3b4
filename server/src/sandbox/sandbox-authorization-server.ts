/**
 * @module
 * The embedded sandbox: a real OAuth 2.0 authorization server (oauth2-mock-server 8) on loopback that stands in
 * for every network without credentials, so the demo and the tests run offline. It issues real codes and tokens
 * and checks PKCE; our labelled consent page (sandbox/consent-routes.ts) sits in front of its /authorize.
 */
import { OAuth2Server } from 'oauth2-mock-server';

/** Scope marker the consent page adds to make the next token exchange fail (to test network errors). */
export const FAIL_TOKEN_SCOPE = 'sandbox_fail_token';

export interface SandboxAuthorizationServer {
  issuer: string;
  stop(): Promise<void>;
}

export async function startSandboxAuthorizationServer(host = '127.0.0.1', port = 0): Promise<SandboxAuthorizationServer> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  const failingCodes = new Set<string>();

  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: { query: Record<string, unknown> }) => {
    const scope = typeof req.query.scope === 'string' ? req.query.scope : '';
    const code = redirect.url.searchParams.get('code');
    if (code && scope.split(/[ ,]/).includes(FAIL_TOKEN_SCOPE)) failingCodes.add(code);
  });
  server.service.on('beforeResponse', (response: { body: unknown; statusCode: number }, req: { body: Record<string, unknown> }) => {
    if (typeof req.body.code === 'string' && failingCodes.delete(req.body.code)) {
      response.statusCode = 400;
      response.body = { error: 'invalid_grant', error_description: 'Sandbox: the network refused this code.' };
    }
  });
  server.service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) => {
    response.body = { sub: 'sandbox-user-1', name: 'Sandbox User', preferred_username: 'sandbox_user' };
  });

  await server.start(port, host);
  const issuer = server.issuer.url!.replace(/\/$/, '');
  return { issuer, stop: () => server.stop() };
}
