/**
 * The way back from a link that stopped working: a popup closes itself, a direct link follows the app's
 * `redirect` when the session had one, a frame has its widget's own close button.
 */
import { html, nothing } from 'lit';
import type { PageMode } from '../integrator-messenger.js';
import type { PageTexts } from '../texts.js';

export function wayBackTemplate(texts: PageTexts, mode: PageMode, redirect: string | null | undefined) {
  if (mode === 'popup') return html`<button type="button" @click=${() => window.close()}>${texts.t('backToApp')}</button>`;
  if (mode === 'direct' && redirect) return html`<a class="button" href=${redirect}>${texts.t('backToApp')}</a>`;
  return nothing;
}
