/** The page for each screen: loading, could not load, link no longer valid, and the list of networks. */
import { html, nothing } from 'lit';
import type { SessionView } from '../../../src/protocol/hosted-api.js';
import { finish } from '../session.js';
import { page, remainingMs } from '../state.js';
import { formatDuration, t } from '../texts.js';
import { networkItemTemplate } from './network-item.js';

/** Embedded web views and in-app browsers, where Google and others refuse OAuth (403 disallowed_useragent). */
const IN_APP_BROWSER = /; wv\)|FBAN|FBAV|Instagram|Line\/|GSA\/|Twitter|TikTok|Snapchat|LinkedInApp|MicroMessenger/;

export function pageTemplate() {
  const screen = page.screen;
  switch (screen.kind) {
    case 'loading':
      return html`<p class="status" role="status">${t('loading')}</p>`;
    case 'failed':
      return html`<h1>${t('loadFailed')}</h1>
        <button type="button" @click=${() => location.reload()}>${t('reload')}</button>`;
    case 'invalid':
      return html`<section class="notice" aria-labelledby="notice-title">
        <h1 id="notice-title">${screen.expired ? t('expiredTitle') : t('invalidTitle')}</h1>
        <p>${t('invalidBody')}</p>
      </section>`;
    case 'ready':
      return readyTemplate(screen.view);
  }
}

function readyTemplate(view: SessionView) {
  const remaining = remainingMs(view);
  const status = page.status;
  return html`<header>
      <h1>${t('heading')}</h1>
      <p class="subtitle">${t('subtitle', { title: view.title })}</p>
      <p class="countdown ${remaining < 60_000 ? 'soon' : ''}">
        ${t(remaining < 60_000 ? 'expiresSoon' : 'expiresIn', { time: formatDuration(remaining) })}
      </p>
    </header>
    ${IN_APP_BROWSER.test(navigator.userAgent) ? html`<p class="message info" data-webview>${t('webviewNotice')}</p>` : nothing}
    <div role="status" aria-live="polite">${status ? html`<p class="message ${status.tone}">${status.text}</p>` : nothing}</div>
    <ul class="networks">
      ${view.networks.map((network) => networkItemTemplate(network))}
    </ul>
    <footer>
      <button type="button" class="secondary" @click=${() => finish()}>${page.mode === 'direct' && view.redirect ? t('backToApp') : t('done')}</button>
    </footer>`;
}
