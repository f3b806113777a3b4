/**
 * The page for each screen: loading, could not load, link expired or no longer valid (each with a next step),
 * and the list of networks under the integrator's branding.
 */
import { html, nothing } from 'lit';
import type { SessionView } from '../../../src/protocol/hosted-api.js';
import { refusedInFrame } from '../embedding.js';
import { localeReady } from '../locale.js';
import { finish } from '../session.js';
import { page, remainingMs, type Screen } from '../state.js';
import { formatDuration, t } from '../texts.js';
import { applyBrandColor, brandHeaderTemplate, brandingOf } from './branding.js';
import { networkItemTemplate } from './network-item.js';

/** Embedded web views and in-app browsers, where Google and others refuse OAuth (403 disallowed_useragent). */
const IN_APP_BROWSER = /; wv\)|FBAN|FBAV|Instagram|Line\/|GSA\/|Twitter|TikTok|Snapchat|LinkedInApp|MicroMessenger/;

const loadingTemplate = () => html`<p class="status" role="status">${t('loading')}</p>`;

export function pageTemplate() {
  const screen = page.screen;
  if (screen.kind === 'loading') return loadingTemplate();
  if (!localeReady(screen.kind === 'ready' ? (screen.view.locale ?? null) : undefined)) return loadingTemplate();
  switch (screen.kind) {
    case 'failed':
      return html`<section class="notice" aria-labelledby="notice-title">
        <h1 id="notice-title">${t('loadFailed')}</h1>
        <p>${t('loadFailedBody')}</p>
        <button type="button" @click=${() => location.reload()}>${t('reload')}</button>
      </section>`;
    case 'invalid':
      return invalidTemplate(screen);
    case 'mismatch':
      return html`<section class="notice" aria-labelledby="notice-title" data-screen="origin-mismatch">
        <h1 id="notice-title">${t('mismatchTitle')}</h1>
        <p>${t('mismatchBody')}</p>
      </section>`;
    case 'ready':
      return refusedInFrame(screen.view) ? notEmbeddableTemplate() : readyTemplate(screen.view);
  }
}

const notEmbeddableTemplate = () =>
  html`<section class="notice" aria-labelledby="notice-title" data-screen="not-embeddable">
    <h1 id="notice-title">${t('embedTitle')}</h1>
    <p>${t('embedBody')}</p>
  </section>`;

/** Expired or no longer valid: why, and the way back (to the app's `redirect`, or closing the window). */
function invalidTemplate(screen: Extract<Screen, { kind: 'invalid' }>) {
  const wayBack =
    page.mode === 'popup'
      ? html`<button type="button" @click=${() => window.close()}>${t('backToApp')}</button>`
      : page.mode === 'direct' && screen.redirect
        ? html`<a class="button" href=${screen.redirect}>${t('backToApp')}</a>`
        : nothing;
  return html`<section class="notice" aria-labelledby="notice-title" data-screen=${screen.expired ? 'expired' : 'invalid'}>
    <h1 id="notice-title">${screen.expired ? t('expiredTitle') : t('invalidTitle')}</h1>
    <p>${screen.expired ? t('expiredBody') : t('invalidBody')}</p>
    ${wayBack}
  </section>`;
}

function readyTemplate(view: SessionView) {
  const remaining = remainingMs(view);
  const status = page.status;
  const branding = brandingOf(view);
  applyBrandColor(branding);
  const linkedCount = view.networks.filter((network) => network.linked).length;
  return html`<header>
      ${brandHeaderTemplate(branding)}
      <p class="subtitle">${t('subtitle', { title: view.title })}</p>
      <p class="countdown ${remaining < 60_000 ? 'soon' : ''}">
        ${t(remaining < 60_000 ? 'expiresSoon' : 'expiresIn', { time: formatDuration(remaining) })}
      </p>
    </header>
    ${IN_APP_BROWSER.test(navigator.userAgent) ? html`<p class="message info" data-webview>${t('webviewNotice')}</p>` : nothing}
    <div role="status" aria-live="polite">${status ? html`<p class="message ${status.tone}" tabindex="-1">${status.text}</p>` : nothing}</div>
    <p class="linked-count">${t('linkedCount', { count: linkedCount })}</p>
    <ul class="networks">
      ${view.networks.map((network) => networkItemTemplate(network))}
    </ul>
    <footer>
      <button type="button" class="secondary" @click=${() => finish()}>${page.mode === 'direct' && view.redirect ? t('backToApp') : t('done')}</button>
    </footer>`;
}
