/**
 * When the HTML holds the first screen (the service rendered it), the page script starts its work only once that
 * screen has been painted: its start-up (Lit, the render over the server's copy, the first use of storage: 15-35 ms
 * in a fresh renderer) would otherwise run before the first frame, or between the first frame and the one that shows
 * it, whenever the script arrives early (from the cache, on a fast network). Two animation frames: the first frame
 * with the screen has been produced once the second begins. A document that gets no animation frames (hidden, or a
 * frame the browser does not render) starts after `START_FALLBACK_MS` instead. Clicks made meanwhile are kept and
 * replayed (early-input.ts).
 */
export const START_FALLBACK_MS = 500;

export function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden') return resolve();
    const fallback = window.setTimeout(resolve, START_FALLBACK_MS);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        window.clearTimeout(fallback);
        // A task after the frame, not inside it: the frame is not held up by the work that follows.
        window.setTimeout(resolve, 0);
      }),
    );
  });
}
