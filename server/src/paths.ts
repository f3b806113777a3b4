/**
 * @module
 * Where the service finds files that are not its own code (the widget and hosted-page builds, package.json), one
 * place for both ways it runs: from source (server/src/*.ts through tsx) and from the build (server/dist/*.js,
 * bundled by server/build.mjs). Both folders sit two levels below the repository root, so a path relative to
 * this module's folder is the same from either, wherever the bundler put this module.
 */
import { fileURLToPath } from 'node:url';

const ROOT = new URL('../../', import.meta.url);

/** An absolute path below the repository (or container /app) root, e.g. `repoPath('dist/cdn/')`. */
export function repoPath(relative: string): string {
  return fileURLToPath(new URL(relative, ROOT));
}

/** True when this process runs the TypeScript source (tsx), false when it runs server/dist. */
export const RUNNING_FROM_SOURCE = import.meta.url.endsWith('.ts');
