/**
 * @module
 * `social-link-admin`: the admin operations (operations.ts) from a shell, on the database the environment names
 * (`DATABASE_URL`, or the SQLite file under `DATA_DIR`, exactly as the service reads them). Prints JSON on
 * stdout; an error is the spec's envelope on stderr with exit code 1, a usage error exit code 2.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig, type ServiceConfig } from '../../config.js';
import { systemClock } from '../../core/clock.js';
import { loadTokenCipher } from '../../core/crypto/load-token-cipher.js';
import type { TokenCipher } from '../../core/crypto/token-cipher.js';
import { ApiError } from '../../core/errors.js';
import { openStorage } from '../../storage/open-storage.js';
import { AdminOperations } from './operations.js';

export const USAGE = `Usage: social-link-admin <command>

  accounts create --name NAME [--plan PLAN] [--add-on max-pack] [--domain D]... [--origin O]...
  accounts list
  accounts show ACCOUNT
  keys rotate ACCOUNT                       a new API key (printed once) replaces the old ones
  plan set ACCOUNT free|premium|launch|business|enterprise
  add-ons set ACCOUNT [max-pack]            the add-ons listed, none when empty
  quota set PROFILE N|default               monthly posts of a profile (id or refId)
  domains set ACCOUNT DOMAIN...             linking domains, the first is the default
  origins set ACCOUNT [ORIGIN...]           origin allowlist, empty allows any
  instagram-method set ACCOUNT instagram|facebook
  branding set ACCOUNT [--name N] [--logo-url URL] [--color #rrggbb]
  branding clear ACCOUNT
  twitter-policy set ACCOUNT own-app|service-app
  linked list ACCOUNT                       profiles, linked accounts and their state
  network-status list                       each network's status (observed, or set here)
  network-status set NETWORK operational|degraded|down [--message TEXT]
  network-status clear NETWORK              back to the observed figures
`;

class UsageError extends Error {}

/** Stored tokens are only opened to tell their expiry; without any key there is nothing they could be opened with. */
function cipherFor(config: ServiceConfig): TokenCipher {
  if (config.tokenKeys.key || existsSync(join(config.dataDir, 'token-key'))) return loadTokenCipher(config.tokenKeys, config.dataDir, () => {});
  return {
    encrypt: () => {
      throw new Error('no token key');
    },
    decrypt: () => {
      throw new Error('no token key');
    },
  };
}

export async function runAdminCli(
  argv: string[],
  env: NodeJS.ProcessEnv,
  out: (text: string) => void = (text) => process.stdout.write(text),
  err: (text: string) => void = (text) => process.stderr.write(text),
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        plan: { type: 'string' },
        'add-on': { type: 'string', multiple: true },
        domain: { type: 'string', multiple: true },
        origin: { type: 'string', multiple: true },
        'logo-url': { type: 'string' },
        color: { type: 'string' },
        message: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    err(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help || parsed.positionals.length === 0) {
    (parsed.values.help ? out : err)(USAGE);
    return parsed.values.help ? 0 : 2;
  }
  const config = readConfig(env);
  const storage = await openStorage(config);
  try {
    const admin = new AdminOperations({ storage, clock: systemClock, tokenCipher: cipherFor(config) });
    const result = await run(admin, parsed.positionals, parsed.values);
    out(`${JSON.stringify({ status: 'success', ...result }, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      err(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      err(`${JSON.stringify(error.toEnvelope(), null, 2)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await storage.close();
  }
}

type Values = { message?: string; name?: string; plan?: string; 'add-on'?: string[]; domain?: string[]; origin?: string[]; 'logo-url'?: string; color?: string };

async function run(admin: AdminOperations, positionals: string[], values: Values): Promise<Record<string, unknown>> {
  const [noun, verb, target, ...rest] = positionals;
  const command = `${noun} ${verb ?? ''}`.trim();
  const need = (value: string | undefined, what: string): string => {
    if (!value) throw new UsageError(`"${command}" needs ${what}.`);
    return value;
  };
  switch (command) {
    case 'accounts create':
      return admin.createAccount({
        name: values.name,
        plan: values.plan,
        addOns: values['add-on'],
        domains: values.domain,
        allowedOrigins: values.origin,
      });
    case 'accounts list':
      return { accounts: await admin.listAccounts() };
    case 'accounts show':
      return { account: await admin.showAccount(need(target, 'an account id')) };
    case 'keys rotate':
      return admin.rotateApiKey(need(target, 'an account id'));
    case 'plan set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { plan: need(rest[0], 'a plan') }) };
    case 'add-ons set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { addOns: rest }) };
    case 'quota set': {
      const quota = need(rest[0], 'a number or "default"');
      // A non-number is passed on as text so the schema names it in the error.
      const monthlyPostQuota = quota === 'default' ? null : /^\d+$/.test(quota) ? Number(quota) : quota;
      return admin.setMonthlyPostQuota(need(target, 'a profile id or refId'), { monthlyPostQuota });
    }
    case 'domains set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { domains: rest }) };
    case 'origins set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { allowedOrigins: rest }) };
    case 'instagram-method set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { instagramLinkMethod: need(rest[0], 'instagram or facebook') }) };
    case 'branding set': {
      const branding = { name: values.name, logoUrl: values['logo-url'], color: values.color };
      if (Object.values(branding).every((value) => value === undefined)) throw new UsageError('"branding set" needs --name, --logo-url or --color.');
      return { account: await admin.changeAccount(need(target, 'an account id'), { branding: JSON.parse(JSON.stringify(branding)) }) };
    }
    case 'branding clear':
      return { account: await admin.changeAccount(need(target, 'an account id'), { branding: null }) };
    case 'twitter-policy set':
      return { account: await admin.changeAccount(need(target, 'an account id'), { twitterCredentialsPolicy: need(rest[0], 'own-app or service-app') }) };
    case 'linked list':
      return admin.listLinkedAccounts(need(target, 'an account id'));
    case 'network-status list':
      return { networks: await admin.networkStatuses() };
    case 'network-status set':
      return { networks: await admin.setNetworkStatus(need(target, 'a network'), need(rest[0], 'operational, degraded or down'), values.message ?? null) };
    case 'network-status clear':
      return { networks: await admin.setNetworkStatus(need(target, 'a network'), null, null) };
    default:
      throw new UsageError(`Unknown command "${positionals.join(' ')}".`);
  }
}
