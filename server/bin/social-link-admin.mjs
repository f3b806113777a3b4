#!/usr/bin/env node
// `npx social-link-admin …`: the operator's CLI (server/src/accounts/admin/cli.ts), run through tsx like the service.
import { register } from 'tsx/esm/api';

register();
const { runAdminCli } = await import('../src/accounts/admin/cli.ts');
process.exitCode = await runAdminCli(process.argv.slice(2), process.env);
