/**
 * @module
 * Reads an account's branding from an untrusted request body (admin tools): the rules of
 * src/protocol/branding.ts, with a 400 (code 101) naming the problem.
 */
import { checkBranding, type Branding } from '@social-link-kit/protocol';
import { badRequest } from '../core/errors.js';

export function parseBrandingRequest(value: unknown, action = 'branding'): Branding | null {
  if (value === null) return null;
  const checked = checkBranding(value);
  if (!checked.ok) throw badRequest(checked.problem, { fields: ['name', 'logoUrl', 'color'] }, action);
  return checked.branding;
}
