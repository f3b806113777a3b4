import { css } from './static-css.js';

export const buttonStyles = css`
  :host {
    display: inline-flex;
    flex-direction: column;
    align-items: flex-start;
    gap: 0.25rem;
    font-family: var(--social-link-font, system-ui, sans-serif);
  }
  :host([hidden]) {
    display: none;
  }
  [part~='button'] {
    display: inline-flex;
    align-items: center;
    gap: 0.5rem;
    padding: var(--social-link-button-padding, 0.625rem 1rem);
    border: var(--social-link-button-border, none);
    border-radius: var(--social-link-button-radius, 8px);
    background: var(--social-link-button-background, var(--social-link-accent, #1a56db));
    color: var(--social-link-button-color, #fff);
    font: inherit;
    font-weight: 600;
    text-decoration: none;
    cursor: pointer;
  }
  [part~='button']:hover {
    background: var(--social-link-button-hover-background, color-mix(in srgb, var(--social-link-accent, #1a56db) 80%, #000));
  }
  [part~='button']:focus-visible {
    outline: var(--social-link-focus-ring, 2px solid #1a73e8);
    outline-offset: 2px;
  }
  [part~='button'][aria-busy='true'] {
    cursor: progress;
    opacity: 0.8;
  }
  [part='status'] {
    font-size: 0.875rem;
    color: var(--social-link-status-color, #b42318);
  }
  @media (prefers-color-scheme: dark) {
    [part='status'] {
      color: var(--social-link-status-color, #ffb4ab);
    }
  }
  [part='status']:empty {
    display: none;
  }
`;
