/**
 * @module
 * An account's branding, shown on the hosted page and in the widget's dialog: the integrator's name, logo and
 * brand colour. No zod, so the server (admin tools, session view) and the browser read the same rules.
 */

export interface Branding {
  /** The integrator's app as the end user knows it ("Acme Scheduler"). */
  name?: string;
  /** An https image URL. */
  logoUrl?: string;
  /** `#rrggbb`. */
  color?: string;
}

const FIELDS = ['name', 'logoUrl', 'color'];
export const BRANDING_NAME_MAX = 80;
const COLOR = /^#[0-9a-fA-F]{6}$/;

export type BrandingCheck = { ok: true; branding: Branding } | { ok: false; problem: string };

/** Checks an untrusted branding object; empty fields are dropped. */
export function checkBranding(value: unknown): BrandingCheck {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, problem: 'branding must be an object with name, logoUrl and color.' };
  const input = value as Record<string, unknown>;
  const unknown = Object.keys(input).filter((key) => !FIELDS.includes(key));
  if (unknown.length > 0) return { ok: false, problem: `unknown branding field(s): ${unknown.join(', ')}.` };
  const branding: Branding = {};
  if (input.name !== undefined) {
    if (typeof input.name !== 'string' || input.name.trim().length === 0 || input.name.length > BRANDING_NAME_MAX) {
      return { ok: false, problem: `branding.name must be a non-empty string of at most ${BRANDING_NAME_MAX} characters.` };
    }
    branding.name = input.name.trim();
  }
  if (input.logoUrl !== undefined) {
    if (typeof input.logoUrl !== 'string' || !isHttpsUrl(input.logoUrl)) return { ok: false, problem: 'branding.logoUrl must be an https URL.' };
    branding.logoUrl = input.logoUrl;
  }
  if (input.color !== undefined) {
    if (typeof input.color !== 'string' || !COLOR.test(input.color)) return { ok: false, problem: 'branding.color must be a colour written #rrggbb.' };
    branding.color = input.color.toLowerCase();
  }
  return { ok: true, branding };
}

function isHttpsUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}
