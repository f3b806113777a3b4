/**
 * Docs that run: every TypeScript, TSX and JavaScript snippet of the README (and docs/client.md) is extracted and compiled with tsc
 * (strict, against the package's sources), and every snippet that uses the client runs against the real service
 * (HTTP on loopback, the embedded sandbox networks). A snippet may use, without declaring them, only the names in
 * PRELUDE below (`links`, `user`, `profileKey`, the page helpers): each stands for the integrator's own code.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { SANDBOX_TWITTER_APP } from '@social-link-kit/sandbox/networks/twitter-api.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { tsImport } from 'tsx/esm/api';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SITE = 'https://link.example.com';

export interface Snippet {
  /** The Markdown file, from the repository root. */
  file: string;
  line: number;
  lang: 'ts' | 'tsx' | 'js';
  code: string;
}

/** The fenced ts, tsx and js blocks of a Markdown text, with the line each starts on. */
export function snippetsOf(file: string, markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(ts|tsx|js)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.indexOf('```', i + 1);
    snippets.push({ file, line: i + 1, lang: open[1] as Snippet['lang'], code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return snippets;
}

/** What snippets may use undeclared: the integrator's side of each example. */
const PRELUDE = `import type { LinkClient } from 'social-link-kit/client.js';
declare global {
  const links: LinkClient;
  const user: { profileKey: string };
  const profileKey: string;
  function refresh(platform: string): void;
  function refreshAccounts(platform: string): void;
  function showError(code: number | string, message: string): void;
  function createSession(): Promise<{ url: string; sessionId: string }>;
  function readStatus(sessionId: string): Promise<unknown>;
}
export {};
`;

const PATHS = {
  'social-link-kit/client.js': ['./src/client/index.ts'],
  'social-link-kit/webhooks.js': ['./src/webhooks/index.ts'],
  'social-link-kit/define.js': ['./src/widget/define.ts'],
  'social-link-kit/react': ['./src/react/index.ts'],
  [`${SITE}/widget/social-link.js`]: ['./src/index.ts'],
};

const fileName = (snippet: Snippet) => `${snippet.file.replace(/\W+/g, '_')}-${snippet.line}.${snippet.lang}`;
const usesClient = (snippet: Snippet) => /\blinks\.|createLinkClient/.test(snippet.code);

describe('README snippets', () => {
  const snippets = ['README.md', 'docs/client.md'].flatMap((file) => snippetsOf(file, readFileSync(join(ROOT, file), 'utf8')));
  // Inside the repository so that tsc and node find its node_modules; .tmp/ is ignored by git.
  const dir = join(ROOT, '.tmp', `readme-snippets-${process.pid}`);
  let svc: TestService;

  before(async () => {
    mkdirSync(dir, { recursive: true });
    svc = await startTestService();
  });
  after(async () => {
    await svc?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds the snippets', () => {
    assert.ok(snippets.length >= 9, `${snippets.length} snippets`);
    assert.ok(snippets.some((snippet) => snippet.lang === 'tsx'));
  });

  it('compiles every snippet with tsc (strict)', async () => {
    writeFileSync(join(dir, 'prelude.d.ts'), PRELUDE);
    // Each snippet is a module of its own (`export {}`), so their top-level names do not meet.
    for (const snippet of snippets) writeFileSync(join(dir, fileName(snippet)), `${snippet.code}\nexport {};\n`);
    const paths = Object.fromEntries(Object.entries(PATHS).map(([name, [target]]) => [name, [join(ROOT, target!)]]));
    const tsconfig = {
      extends: join(ROOT, 'tsconfig.base.json'),
      compilerOptions: { noEmit: true, lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: ['node'], jsx: 'react-jsx', allowJs: true, checkJs: false, paths, experimentalDecorators: true, useDefineForClassFields: false, noUnusedLocals: false },
      include: ['*.ts', '*.tsx', '*.js'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
    const tsc = join(ROOT, 'node_modules', '.bin', 'tsc');
    const run = await promisify(execFile)(tsc, ['-p', dir, '--pretty', 'false'], { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? 'tsc failed' }));
    // Name the README line of each error.
    const errors = run.stdout.trim().replace(/([\w]+)-(\d+)\.(tsx?|js)\((\d+),/g, (_m, file: string, start: string, _lang, line: string) => `${file}:${Number(start) + Number(line)} (`);
    assert.equal(errors, '');
  });

  it('runs every client snippet against the service', async () => {
    const client = snippets.filter(usesClient);
    assert.ok(client.length >= 4, `${client.length} client snippets`);
    process.env.LINK_API_KEY = svc.apiKey;
    const { createLinkClient } = await import('../../../src/client/index.js');
    const setup = createLinkClient({ baseUrl: `${svc.url}/api`, apiKey: svc.apiKey });
    const { profileKey } = await setup.createProfile('README snippets');
    for (const platform of ['twitter', 'linkedin', 'bluesky', 'facebook']) {
      const response = await fetch(`${svc.url}/api/sandbox/accounts`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${svc.apiKey}`, 'Profile-Key': profileKey, 'Content-Type': 'application/json' },
        body: JSON.stringify({ platform }),
      });
      assert.equal(response.status, 200, await response.text());
    }
    const globals = globalThis as Record<string, unknown>;
    Object.assign(globals, { links: createLinkClient({ baseUrl: `${svc.url}/api`, apiKey: svc.apiKey, twitterApp: SANDBOX_TWITTER_APP }), user: { profileKey }, profileKey });
    try {
      for (const snippet of client) {
        const code = snippet.code.replaceAll(`${SITE}/api`, `${svc.url}/api`).replace(/from 'social-link-kit\/client\.js'/g, `from '${join(ROOT, 'src', 'client', 'index.ts')}'`);
        const file = join(dir, `run-${fileName(snippet)}`);
        writeFileSync(file, `${code}\nexport {};\n`);
        // The snippet is TypeScript: tsx loads it (the suite itself may run bundled, without a loader).
        await tsImport(file, import.meta.url).catch((error: unknown) => {
          throw new Error(`${snippet.file}:${snippet.line}: ${String(error)}`, { cause: error });
        });
      }
    } finally {
      for (const name of ['links', 'user', 'profileKey']) delete globals[name];
    }
  });
});

