/**
 * The page's answer and message schemas (schema-bundle.ts), loaded on first use in a chunk of their own, so the
 * first screen renders without waiting for zod. main.ts starts the load right after that first render; every
 * later use gets the same module.
 */
export type Schemas = typeof import('./schema-bundle.js');

let loading: Promise<Schemas> | null = null;

export function schemas(): Promise<Schemas> {
  // A failed load (offline) is tried again on the next use instead of failing every later call.
  loading ??= import('./schema-bundle.js').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
