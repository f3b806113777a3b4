/**
 * The integrator's branding on the page: its name and logo in the header, what it will be able to do, and its
 * colour as the accent (with black or white text on it, whichever reads better). The service checked the
 * branding when it was set; the page checks it again before use.
 */
import { html, nothing } from 'lit';
import { checkBranding, type Branding } from '@social-link-kit/protocol/branding.js';
import type { SessionView } from '@social-link-kit/protocol/hosted-api.js';
import type { PageTexts } from '../texts.js';

export function brandingOf(view: SessionView): Branding {
  const checked = view.branding ? checkBranding(view.branding) : null;
  return checked?.ok ? checked.branding : {};
}

/** Sets the accent through the CSSOM (the page's CSP allows no inline style attributes). */
export function applyBrandColor(branding: Branding): void {
  const root = document.documentElement.style;
  if (!branding.color) {
    root.removeProperty('--slk-brand');
    root.removeProperty('--slk-on-brand');
    return;
  }
  root.setProperty('--slk-brand', branding.color);
  root.setProperty('--slk-on-brand', luminance(branding.color) > 0.4 ? '#111111' : '#ffffff');
}

/** Relative luminance of #rrggbb (WCAG 2). */
function luminance(color: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(color.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function brandHeaderTemplate(texts: PageTexts, branding: Branding) {
  const { t } = texts;
  const app = branding.name;
  return html`${branding.logoUrl && app
      ? html`<img class="brand-logo" src=${branding.logoUrl} alt=${t('logoAlt', { app })} width="48" height="48" referrerpolicy="no-referrer" />`
      : nothing}
    <h1>${app ? t('brandedHeading', { app }) : t('heading')}</h1>
    <p class="permission">${app ? t('permission', { app }) : t('permissionGeneric')}</p>`;
}
