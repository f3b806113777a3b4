/**
 * Frame mode: tells the widget how tall the page's content is (`connect:resize`), so its dialog fits the content
 * instead of a fixed box. Measures <main>, not the document, which is as tall as the frame itself.
 */
import type { Messenger } from './integrator-messenger.js';

export function fitFrameToContent(messenger: Messenger, main: HTMLElement): void {
  let last = -1;
  new ResizeObserver(() => {
    const height = Math.min(10_000, Math.ceil(main.getBoundingClientRect().height));
    if (height === last) return;
    last = height;
    messenger.resize(height);
  }).observe(main);
}
