/**
 * Connect method `credentials`, the credentials step: a form on the page takes a handle and an app password; the
 * service verifies them with the network and stores the account before it answers.
 */
import { LitElement, html, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import type { Network } from '@social-link-kit/protocol/networks.js';
import { label, type LinkState } from '../link-state.js';
import { announceLinked, isLinkRefused, loadView, reportConnectError } from '../session.js';
import { ENGLISH_TEXTS, type PageTexts } from '../texts.js';

/** The sandbox PDS's app password (sandbox/src/networks/bluesky-pds.ts): public, it only works there. */
const SANDBOX_APP_PASSWORD = 'sandbox-app-password';

export function openCredentialsStep(link: LinkState, platform: Network): void {
  link.inlineStep = { method: 'credentials', platform };
  link.update();
}

export class CredentialsStep extends LitElement {
  static readonly tagName = 'slk-credentials-step';
  @property({ attribute: false }) link!: LinkState;
  @property({ attribute: false }) platform!: Network;
  @property({ attribute: false }) texts: PageTexts = ENGLISH_TEXTS;
  /** A connection or disconnection is under way: the submit button waits. */
  @property({ attribute: false }) busy = false;
  /** The network is a sandbox: the form shows the sandbox login a person needs. */
  @property({ attribute: false }) sandbox = false;

  /** Light DOM: the page's stylesheet lays the form out in the network's row. */
  protected override createRenderRoot() {
    return this;
  }

  override firstUpdated(): void {
    this.querySelector<HTMLInputElement>('input[name=handle]')?.focus();
  }

  override render() {
    const { t } = this.texts;
    const network = label(this.platform);
    return html`<form class="inline" @submit=${this.submit} aria-label=${t('credentialsTitle', { network })}>
      <p class="hint">${t('appPasswordHint', { network })}</p>
      ${this.sandbox ? html`<p class="hint sandbox-login">${t('sandboxAppPassword', { password: SANDBOX_APP_PASSWORD })}</p>` : nothing}
      <label>${t('handle')} <input name="handle" autocomplete="username" required placeholder=${t('handlePlaceholder')} /></label>
      <label>${t('appPassword')} <input name="appPassword" type="password" autocomplete="current-password" required /></label>
      <div class="actions">
        <button type="submit" ?disabled=${this.busy}>${t('connect')}</button>
        <button type="button" class="secondary" @click=${this.close}>${t('cancel')}</button>
      </div>
    </form>`;
  }

  private readonly close = (): void => {
    this.link.inlineStep = null;
    this.link.update();
  };

  private readonly submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const { link, platform } = this;
    const data = new FormData(event.currentTarget as HTMLFormElement);
    link.busyPlatform = platform;
    link.setStatus(link.t('saving', { network: label(platform) }));
    try {
      await link.api().connectWithCredentials(platform, { handle: String(data.get('handle') ?? ''), appPassword: String(data.get('appPassword') ?? '') });
      link.inlineStep = null;
      await loadView(link);
      announceLinked(link, platform);
    } catch (error) {
      if (isLinkRefused(error)) return void (await loadView(link));
      reportConnectError(link, platform, error);
    } finally {
      link.busyPlatform = null;
      link.update();
    }
  };
}
