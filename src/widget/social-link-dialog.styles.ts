import { css } from 'lit';

export const dialogStyles = css`
  :host {
    display: contents;
  }
  dialog {
    box-sizing: border-box;
    width: var(--social-link-dialog-width, min(480px, 100vw - 2rem));
    height: var(--social-link-dialog-height, min(720px, 100vh - 2rem));
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
    justify-content: space-between;
    gap: 0.5rem;
    padding: 0.5rem 0.5rem 0.5rem 1rem;
    border-bottom: 1px solid var(--social-link-divider, #e3e3e3);
  }
  [part='title'] {
    margin: 0;
    font-size: 1rem;
    font-weight: 600;
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
    background: var(--social-link-close-hover, rgb(0 0 0 / 0.06));
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
    color: var(--social-link-muted, #555);
  }
  [part='timeout'] {
    padding: 1.5rem;
    text-align: center;
    color: var(--social-link-error-color, #b3261e);
  }
`;
