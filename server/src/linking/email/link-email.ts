/**
 * @module
 * The link-session email (spec 4.6). The link is a password: it goes out as a plain link with click
 * tracking switched off for the common delivery services, and is never logged.
 */
import nodemailer from 'nodemailer';
import type { LinkSessionEmail } from '@social-link-kit/protocol';
import { escapeHtml } from '../../core/http/html.js';

export interface OutgoingEmail {
  to: string;
  replyTo: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Sends one email; rejects when the SMTP server refuses it. */
export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
}

/** Headers that tell SendGrid, Postmark and Mailgun not to rewrite links for click tracking. */
export const NO_CLICK_TRACKING_HEADERS: Record<string, string> = {
  'X-SMTPAPI': JSON.stringify({ filters: { clicktrack: { settings: { enable: 0 } } } }),
  'X-PM-TrackLinks': 'None',
  'X-Mailgun-Track-Clicks': 'no',
};

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    async send(email) {
      // `prepared` keeps header values byte-for-byte: delivery services parse X-SMTPAPI as raw JSON.
      const headers = Object.fromEntries(Object.entries(email.headers).map(([name, value]) => [name, { prepared: true, value }]));
      await transport.sendMail({ ...email, headers, from });
    },
  };
}

export function composeLinkEmail(fields: LinkSessionEmail, link: string, title: string, expiresAt: Date): OutgoingEmail {
  const expires = expiresAt.toUTCString();
  const subject = `${fields.company}: connect your social accounts`;
  const text = [
    `${fields.company} asks you to connect your social accounts to "${title}".`,
    '',
    `Open this link to connect them (it works until ${expires}):`,
    link,
    '',
    'This link signs you in: do not forward it.',
    `Questions: ${fields.contactEmail}`,
    `Terms: ${fields.termsUrl}`,
    `Privacy: ${fields.privacyUrl}`,
  ].join('\n');
  const html = `<!doctype html><html><body>
<p>${escapeHtml(fields.company)} asks you to connect your social accounts to “${escapeHtml(title)}”.</p>
<p><a href="${escapeHtml(link)}" rel="noreferrer">Connect your accounts</a> (works until ${escapeHtml(expires)}).</p>
<p>This link signs you in: do not forward it.</p>
<p>Questions: <a href="mailto:${escapeHtml(fields.contactEmail)}">${escapeHtml(fields.contactEmail)}</a><br>
<a href="${escapeHtml(fields.termsUrl)}">Terms</a> · <a href="${escapeHtml(fields.privacyUrl)}">Privacy</a></p>
</body></html>`;
  return { to: fields.to, replyTo: fields.contactEmail, subject, text, html, headers: NO_CLICK_TRACKING_HEADERS };
}
