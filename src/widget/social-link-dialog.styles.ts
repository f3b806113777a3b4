import { css } from './static-css.js';

export const dialogStyles = css`
  :host {
    display: contents;
  }
  dialog {
    box-sizing: border-box;
    width: var(--social-link-dialog-width, min(480px, 100vw - 2rem));
    /* Fits the hosted page's content (frame mode reports its height) under the close button's row. */
    height: var(--social-link-dialog-height, min(var(--social-link-content-height, 720px) + 2.75rem, 100vh - 2rem));
    max-width: 100vw;
    max-height: 100vh;
    padding: 0;
    border: var(--social-link-dialog-border, none);
    border-radius: var(--social-link-dialog-radius, 12px);
    background: var(--social-link-dialog-background, #fff);
    color: var(--social-link-dialog-color, #1a1a1a);
    box-shadow: var(--social-link-dialog-shadow, 0 12px 48px rgb(0 0 0 / 0.3));
    font-family: var(--social-link-font, system-ui, sans-serif);
    overflow: hidden;
  }
  dialog[open] {
    display: flex;
    flex-direction: column;
  }
  dialog::backdrop {
    background: var(--social-link-backdrop, rgb(0 0 0 / 0.5));
  }
  [part='header'] {
    display: flex;
    align-items: center;
    justify-content: flex-end;
    padding: 0.25rem;
  }
  /* The hosted page shows the one visible heading; this one names the dialog for assistive technology only. */
  [part='title'] {
    position: absolute;
    clip-path: inset(50%);
  }
  [part='close-button'] {
    display: inline-grid;
    place-items: center;
    width: 2.25rem;
    height: 2.25rem;
    border: none;
    border-radius: 50%;
    background: transparent;
    color: inherit;
    font: inherit;
    font-size: 1.5rem;
    line-height: 1;
    cursor: pointer;
  }
  [part='close-button']:hover {
    background: var(--social-link-close-hover, color-mix(in srgb, currentColor 10%, transparent));
  }
  [part='close-button']:focus-visible {
    outline: var(--social-link-focus-ring, 2px solid #1a73e8);
    outline-offset: 2px;
  }
  [part='body'] {
    position: relative;
    flex: 1;
  }
  [part='frame'] {
    /* Positioned after the loading note, so it paints over it; transparent until the page draws. */
    position: relative;
    display: block;
    width: 100%;
    height: 100%;
    border: 0;
  }
  [part='frame'].loading {
    visibility: hidden;
  }
  [part='loading'],
  [part='timeout'] {
    position: absolute;
    inset: 0;
    display: grid;
    place-items: center;
    color: var(--social-link-muted, inherit);
  }
  [part='timeout'] {
    padding: 1.5rem;
    text-align: center;
    color: var(--social-link-error-color, #b3261e);
  }
  /* Phones: a full-screen sheet rather than a box with margins. */
  @media (max-width: 520px) {
    dialog {
      width: 100vw;
      height: 100dvh;
      max-height: 100dvh;
      margin: 0;
      border-radius: 0;
    }
  }
  @media (prefers-color-scheme: dark) {
    dialog {
      background: var(--social-link-dialog-background, #15181f);
      color: var(--social-link-dialog-color, #e8eaf0);
    }
    [part='timeout'] {
      color: var(--social-link-error-color, #ffb4ab);
    }
  }
`;
