/**
 * @module
 * The hosted page's first screen, rendered once per look: renders are kept by the renderer's own key
 * (`firstScreenKey`: what a render depends on), because most pages of one integrator look alike (same networks,
 * the countdown at its full length) while a render costs 0.5-2 ms warm and 5-15 ms for the first ones of a
 * process, on every click's path. Bounded: the least recently used render leaves first. One per build (see
 * hosted-page-build.ts), so a rebuilt page starts afresh.
 */
import type { FirstScreenModule, FirstScreenRequest } from '../../../../hosted/src/first-screen-contract.js';

export const FIRST_SCREEN_CACHE_SIZE = 100;

export function cachedFirstScreenRenderer(renderer: FirstScreenModule, capacity = FIRST_SCREEN_CACHE_SIZE): (request: FirstScreenRequest) => string | null {
  const renders = new Map<string, string | null>();
  return (request) => {
    const key = renderer.firstScreenKey(request);
    if (renders.has(key)) {
      const html = renders.get(key)!;
      // Map keeps insertion order: moved to the end, it is the most recently used.
      renders.delete(key);
      renders.set(key, html);
      return html;
    }
    const html = renderer.renderFirstScreen(request);
    renders.set(key, html);
    if (renders.size > capacity) renders.delete(renders.keys().next().value!);
    return html;
  };
}
