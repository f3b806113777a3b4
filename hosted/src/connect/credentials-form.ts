/**
 * Connect method `credentials`: a form on the page takes a handle and an app password; the service verifies
 * them with the network and stores the account before it answers.
 */
import { html } from 'lit';
import type { Network } from '../../../src/protocol/networks.js';
import { announceLinked, isLinkRefused, loadView, reportConnectError } from '../session.js';
import { api, label, page, setStatus, update } from '../state.js';
import { t } from '../texts.js';

export function openCredentialsForm(platform: Network): void {
  page.inlineStep = { method: 'credentials', platform };
  update();
  document.querySelector<HTMLInputElement>('input[name=handle]')?.focus();
}

export function credentialsFormTemplate(platform: Network) {
  const network = label(platform);
  return html`<form class="inline" @submit=${(event: SubmitEvent) => submit(platform, event)} aria-label=${t('credentialsTitle', { network })}>
    <p class="hint">${t('appPasswordHint', { network })}</p>
    <label>${t('handle')} <input name="handle" autocomplete="username" required placeholder=${t('handlePlaceholder')} /></label>
    <label>${t('appPassword')} <input name="appPassword" type="password" autocomplete="current-password" required /></label>
    <div class="actions">
      <button type="submit" ?disabled=${page.busyPlatform !== null}>${t('connect')}</button>
      <button type="button" class="secondary" @click=${close}>${t('cancel')}</button>
    </div>
  </form>`;
}

function close(): void {
  page.inlineStep = null;
  update();
}

async function submit(platform: Network, event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const data = new FormData(event.currentTarget as HTMLFormElement);
  page.busyPlatform = platform;
  setStatus(t('saving', { network: label(platform) }));
  try {
    await api().connectWithCredentials(platform, { handle: String(data.get('handle') ?? ''), appPassword: String(data.get('appPassword') ?? '') });
    page.inlineStep = null;
    await loadView();
    announceLinked(platform);
  } catch (error) {
    if (isLinkRefused(error)) return void (await loadView());
    reportConnectError(platform, error);
  } finally {
    page.busyPlatform = null;
    update();
  }
}
