/**
 * @module
 * The server's layering, checked by scripts/import-circles.mjs over the real import lines (type-only ones too): no
 * import circle in server/src is larger than 3 files, and server/src/networks/** imports only core/ (and packages
 * such as the protocol), never a feature. A small tree written here proves the check can fail.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const script = join(repo, 'scripts/import-circles.mjs');

async function check(dir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [script, dir, '--max', '3', '--layer', 'networks=core']);
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

test('server/src: no circle over 3 files, and networks/ imports only core/', async () => {
  const { code, out } = await check(join(repo, 'server/src'));
  assert.equal(code, 0, out);
});

const scratch = mkdtempSync(join(tmpdir(), 'layers-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

test('the check fails on a network importing a feature, and on a 4-file circle (type-only imports count)', async () => {
  for (const dir of ['core', 'networks/x', 'linking', 'publishing']) mkdirSync(join(scratch, dir), { recursive: true });
  writeFileSync(join(scratch, 'core/a.ts'), 'export const a = 1;\n');
  writeFileSync(join(scratch, 'networks/x/index.ts'), "import { a } from '../../core/a.js';\nexport const x = a;\n");
  assert.equal((await check(scratch)).code, 0);

  writeFileSync(join(scratch, 'networks/x/link.ts'), "import type { S } from '../../linking/service.js';\nexport type L = S;\n");
  writeFileSync(join(scratch, 'linking/service.ts'), 'export type S = string;\n');
  const crossing = await check(scratch);
  assert.equal(crossing.code, 1);
  assert.match(crossing.out, /networks\/x\/link\.ts → linking\/service\.ts/);
  rmSync(join(scratch, 'networks/x/link.ts'));

  const ring = ['p1', 'p2', 'p3', 'p4'];
  ring.forEach((name, i) => writeFileSync(join(scratch, `publishing/${name}.ts`), `import type { T } from './${ring[(i + 1) % 4]}.js';\nexport type T${i} = T;\nexport type T = number;\n`));
  const circle = await check(scratch);
  assert.equal(circle.code, 1);
  assert.match(circle.out, /largest 4 files/);
});
