/**
 * @module
 * Where the token key comes from: `TOKEN_ENCRYPTION_KEY` (+ `TOKEN_ENCRYPTION_OLD_KEYS`, comma separated) in
 * production. For local development without it, a key is generated once into `{dataDir}/token-key` (mode 0600)
 * with a warning, so the embedded demo works on a fresh machine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createTokenCipher, parseKey, type TokenCipher } from './token-cipher.js';

export function loadTokenCipher(env: NodeJS.ProcessEnv, dataDir: string, warn: (line: string) => void): TokenCipher {
  const oldKeys = (env.TOKEN_ENCRYPTION_OLD_KEYS ?? '').split(',').filter(Boolean).map(parseKey);
  if (env.TOKEN_ENCRYPTION_KEY) return createTokenCipher([parseKey(env.TOKEN_ENCRYPTION_KEY), ...oldKeys]);
  const file = join(dataDir, 'token-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    warn(`TOKEN_ENCRYPTION_KEY is not set: generated a development key in ${file}. Set it from a secret store in production.`);
  }
  return createTokenCipher([parseKey(readFileSync(file, 'utf8').trim()), ...oldKeys]);
}
