/**
 * @module
 * Checks the fields of a link-session email. A bad field never rejects the request (spec 4.6): the session
 * is created and the response says `emailSent: false` with `emailError.details` naming the fields.
 */
import { ErrorCode, type EmailError, type LinkSessionEmail } from '@social-link-kit/protocol';

const EMAIL_ADDRESS = /^[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+$/;
const FIELDS = ['to', 'contactEmail', 'company', 'termsUrl', 'privacyUrl'] as const;

export type EmailCheck = { ok: true; fields: LinkSessionEmail } | { ok: false; error: EmailError };

export function checkEmailFields(email: Record<string, unknown>): EmailCheck {
  const missing: string[] = [];
  const invalid: string[] = [];
  for (const field of FIELDS) {
    const value = email[field];
    if (typeof value !== 'string' || value.trim() === '') {
      missing.push(field);
    } else if (!isValid(field, value.trim())) {
      invalid.push(field);
    }
  }
  if (missing.length === 0 && invalid.length === 0) {
    const fields = Object.fromEntries(FIELDS.map((field) => [field, (email[field] as string).trim()]));
    return { ok: true, fields: fields as LinkSessionEmail };
  }
  const parts = [];
  if (missing.length > 0) parts.push(`missing: ${missing.join(', ')}`);
  if (invalid.length > 0) parts.push(`invalid: ${invalid.join(', ')}`);
  return {
    ok: false,
    error: { code: ErrorCode.badRequest, message: 'The email was not sent: some required email fields are missing or invalid.', details: parts.join('; ') },
  };
}

function isValid(field: (typeof FIELDS)[number], value: string): boolean {
  if (field === 'to' || field === 'contactEmail') return EMAIL_ADDRESS.test(value) && value.length <= 254;
  if (field === 'termsUrl' || field === 'privacyUrl') {
    try {
      return ['https:', 'http:'].includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }
  return value.length <= 200;
}

export function sendFailedError(reason: string): EmailError {
  return { code: ErrorCode.emailSendFailed, message: 'The link email could not be sent.', details: reason };
}

/**
 * What `emailError.details` may say about a failed send: the kind of failure and the SMTP reply code, never the
 * error text (nodemailer's names the mail server's host and port, e.g. "connect ECONNREFUSED 10.0.0.5:587").
 */
export function describeSendFailure(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof responseCode === 'number') {
    return responseCode >= 500
      ? `The mail server refused the message (SMTP ${responseCode}).`
      : `The mail server could not take the message now (SMTP ${responseCode}); try again later.`;
  }
  if (code === 'EAUTH') return 'The service could not sign in to its mail server.';
  if (code === 'ETIMEDOUT') return 'The mail server did not answer in time; try again later.';
  if (code === 'EENVELOPE') return 'The recipient address was refused.';
  return 'The mail server could not be reached; try again later.';
}
