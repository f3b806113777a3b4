// npm's `prepare`: runs after `npm install` in a checkout, and when the package is installed from a git URL
// (`npm install <git url>`), where dist/lib, the files the package exports, is not in the repository. It builds
// them once; an existing build is kept (`npm run build:lib` rebuilds). Skipped where the sources are not there yet
// (the Dockerfile installs dependencies before it copies them).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url);
if (existsSync(new URL('src/index.ts', root)) && !existsSync(new URL('dist/lib/index.js', root))) {
  execSync('npm run build:lib', { cwd: root, stdio: 'inherit' });
}
