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

export interface TokenKeySettings {
  /** `TOKEN_ENCRYPTION_KEY`, base64; null: the development key file. */
  key: string | null;
  /** `TOKEN_ENCRYPTION_OLD_KEYS`: keys that still open older values. */
  oldKeys: string[];
}

export function readTokenKeySettings(env: NodeJS.ProcessEnv): TokenKeySettings {
  return { key: env.TOKEN_ENCRYPTION_KEY || null, oldKeys: (env.TOKEN_ENCRYPTION_OLD_KEYS ?? '').split(',').filter(Boolean) };
}

export function loadTokenCipher(settings: TokenKeySettings, dataDir: string, warn: (line: string) => void): TokenCipher {
  const oldKeys = settings.oldKeys.map(parseKey);
  if (settings.key) return createTokenCipher([parseKey(settings.key), ...oldKeys]);
  const file = join(dataDir, 'token-key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
    warn(`TOKEN_ENCRYPTION_KEY is not set: generated a development key in ${file}. Set it from a secret store in production.`);
  }
  return createTokenCipher([parseKey(readFileSync(file, 'utf8').trim()), ...oldKeys]);
}
