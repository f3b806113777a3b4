#!/usr/bin/env node
// `npx social-link-admin …`: the operator's CLI (server/src/accounts/admin/cli.ts), from the build (server/dist,
// `npm run build`). A development checkout that has not been built runs the source through tsx instead.
import { existsSync } from 'node:fs';

let cli;
if (existsSync(new URL('../dist/cli.js', import.meta.url))) {
  cli = await import('../dist/cli.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/accounts/admin/cli.ts');
}
process.exitCode = await cli.runAdminCli(process.argv.slice(2), process.env);
