/**
 * @module
 * The widget's script-tag build (dist/cdn: social-link.js and the locale chunks it imports on demand, `<locale>.js`)
 * as one versioned unit. Its id is the package version and a hash of every file in it (`0.1.0-3f2a9c1b0d`), so the
 * bytes behind a pinned address never change: another build is another id. Each build the service sees is copied
 * to `DATA_DIR/widget/<id>/`, and served from there after later upgrades, so a pinned address keeps working.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files of a build: the entry and its locale chunks (not the source maps). */
export const WIDGET_ENTRY = 'social-link.js';
export const LOCALE_CHUNK = /^[a-z]{2}(-[A-Z]{2})?\.js$/;
/** An id as the build names it: `<package version>-<10 hex>`. */
export const BUILD_ID = /^\d+\.\d+\.\d+(-[\w.]+)?-[0-9a-f]{10}$/;

export interface WidgetBuild {
  id: string;
  files: Map<string, Buffer>;
  /** `sha384-…` of social-link.js, as `<script integrity>` expects it. */
  integrity: string;
}

export function integrityOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** The build in `dir`, or null when it has no social-link.js. */
export function readWidgetBuild(dir: string, packageVersion: string): WidgetBuild | null {
  if (!existsSync(join(dir, WIDGET_ENTRY))) return null;
  const names = readdirSync(dir).filter((name) => name === WIDGET_ENTRY || LOCALE_CHUNK.test(name)).sort();
  const files = new Map(names.map((name) => [name, readFileSync(join(dir, name))]));
  const hash = createHash('sha256');
  for (const [name, bytes] of files) hash.update(`${name}\0${bytes.length}\0`).update(bytes);
  return { id: `${packageVersion}-${hash.digest('hex').slice(0, 10)}`, files, integrity: integrityOf(files.get(WIDGET_ENTRY)!) };
}

/**
 * The builds kept under `archiveDir` (DATA_DIR/widget), and the current one in `currentDir` (dist/cdn) copied there
 * when it is new. The current build is re-read when its entry file changes (a rebuild under a running service).
 */
export function widgetBuilds(currentDir: string, archiveDir: string, packageVersion: string) {
  let seen: { stamp: string; build: WidgetBuild | null } | null = null;
  const archived = new Map<string, WidgetBuild>();

  function archive(build: WidgetBuild) {
    const target = join(archiveDir, build.id);
    if (existsSync(target)) return;
    // Written beside, then renamed: a reader never sees half a build.
    const partial = `${target}.partial-${process.pid}`;
    mkdirSync(partial, { recursive: true });
    for (const [name, bytes] of build.files) writeFileSync(join(partial, name), bytes);
    try {
      renameSync(partial, target);
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      // Another instance on the same DATA_DIR got there first.
      if (!existsSync(target)) throw error;
    }
  }

  function tryArchive(build: WidgetBuild) {
    try {
      archive(build);
    } catch {
      // See the caller.
    }
  }

  return {
    current(): WidgetBuild | null {
      const entry = join(currentDir, WIDGET_ENTRY);
      const stamp = existsSync(entry) ? `${statSync(entry).mtimeMs}:${statSync(entry).size}` : 'none';
      if (seen?.stamp !== stamp) {
        const build = readWidgetBuild(currentDir, packageVersion);
        // A DATA_DIR that cannot take it (read-only) still serves the current build; only keeping it is lost.
        if (build) tryArchive(build);
        seen = { stamp, build };
      }
      return seen.build;
    },
    /** A build by id: the current one, or one kept from before. */
    byId(id: string): WidgetBuild | null {
      const current = this.current();
      if (current?.id === id) return current;
      if (!BUILD_ID.test(id)) return null;
      if (!archived.has(id)) {
        const build = readWidgetBuild(join(archiveDir, id), id.slice(0, id.lastIndexOf('-')));
        // Only a folder whose files still hash to its name is served under it.
        if (!build || build.id !== id) return null;
        archived.set(id, build);
      }
      return archived.get(id)!;
    },
    /** Every id that can be served: the kept builds and the current one. */
    ids(): string[] {
      const current = this.current();
      const kept = existsSync(archiveDir) ? readdirSync(archiveDir).filter((name) => BUILD_ID.test(name)) : [];
      return [...new Set([...kept, ...(current ? [current.id] : [])])].sort();
    },
  };
}
