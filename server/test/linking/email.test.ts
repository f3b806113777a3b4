import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '@social-link-kit/protocol';
import { createSmtpMailer } from '../../src/linking/email/link-email.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { decodeQuotedPrintable, startSmtpServer } from '../support/smtp.js';

const EMAIL = {
  to: 'ada@example.org',
  contactEmail: 'support@acme.example',
  company: 'Acme',
  termsUrl: 'https://acme.example/terms',
  privacyUrl: 'https://acme.example/privacy',
};

describe('link-session email over real SMTP', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let svc: TestService;
  before(async () => {
    smtp = await startSmtpServer();
    svc = await startTestService({ mailer: createSmtpMailer(smtp.url, 'Links <links@service.example>') });
  });
  after(async () => {
    await svc.close();
    await smtp.close();
  });

  it('sends the link, unchanged and without click tracking, to `to`', async () => {
    const created = await svc.client.createLinkSession({ email: EMAIL });
    assert.equal(created.emailSent, true);
    assert.equal(created.emailError, undefined);
    const message = smtp.received.at(-1)!;
    assert.deepEqual(message.to, ['ada@example.org']);
    const body = decodeQuotedPrintable(message.raw);
    assert.ok(body.includes(created.url), 'the exact link is in the message');
    assert.ok(body.includes(`href="${created.url.replace(/&/g, '&#38;')}"`), 'the HTML link points straight at the link URL');
    assert.match(message.raw, /^X-PM-TrackLinks: None\r?$/im);
    assert.match(message.raw, /^X-Mailgun-Track-Clicks: no\r?$/im);
    assert.match(message.raw, /^X-SMTPAPI: \{"filters":\{"clicktrack":\{"settings":\{"enable":0\}\}\}\}\r?$/im);
    assert.match(message.raw, /^Reply-To: support@acme\.example\r?$/m);
    assert.match(body, /Acme/);
    assert.match(body, /https:\/\/acme\.example\/terms/);
  });

  it('ignores expiresIn nested inside email', async () => {
    const created = await svc.client.createLinkSession({ email: { ...EMAIL, expiresIn: 600 } as typeof EMAIL });
    assert.equal(created.expiresAt, new Date(svc.clock() + 5 * 60_000).toISOString());
  });

  it('rejects the whole request with 188 when `to` is missing, and creates nothing', async () => {
    const sent = smtp.received.length;
    for (const email of [{ ...EMAIL, to: undefined }, { ...EMAIL, to: '' }, { ...EMAIL, to: 5 }]) {
      const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { email } });
      assert.equal(status, 400);
      assert.equal(json.code, ErrorCode.emailToMissing);
    }
    assert.equal(smtp.received.length, sent);
  });

  it('creates the session but reports emailSent:false naming missing and invalid fields', async () => {
    const sent = smtp.received.length;
    const { status, json } = await svc.api('POST', '/profiles/link-sessions', {
      body: { email: { to: 'ada@example.org', contactEmail: 'not-an-address', termsUrl: 'https://acme.example/terms' } },
    });
    assert.equal(status, 200);
    assert.equal(json.emailSent, false);
    assert.equal(json.emailError.code, ErrorCode.badRequest);
    assert.equal(json.emailError.details, 'missing: company, privacyUrl; invalid: contactEmail');
    assert.equal(smtp.received.length, sent);
    assert.equal((await svc.client.getLinkSession(json.sessionId)).state, 'active');
  });

  it('rejects a non-object email with 101', async () => {
    const { status, json } = await svc.api('POST', '/profiles/link-sessions', { body: { email: 'ada@example.org' } });
    assert.equal(status, 400);
    assert.equal(json.code, ErrorCode.badRequest);
  });
});

describe('link-session email failures', () => {
  it('reports 333 when the SMTP server refuses the recipient; the session still works', async () => {
    const smtp = await startSmtpServer({ rejectRecipients: true });
    const svc = await startTestService({ mailer: createSmtpMailer(smtp.url, 'links@service.example') });
    try {
      const created = await svc.client.createLinkSession({ email: EMAIL });
      assert.equal(created.emailSent, false);
      assert.equal(created.emailError?.code, ErrorCode.emailSendFailed);
      assert.match(created.emailError!.details, /SMTP 550/);
      assert.doesNotMatch(created.emailError!.details, new RegExp(new URL(smtp.url).port));
      assert.equal((await svc.client.getLinkSession(created.sessionId)).state, 'active');
    } finally {
      await svc.close();
      await smtp.close();
    }
  });

  it('reports 333 when no SMTP server answers', async () => {
    const svc = await startTestService({ mailer: createSmtpMailer('smtp://127.0.0.1:1', 'links@service.example') });
    try {
      const created = await svc.client.createLinkSession({ email: EMAIL });
      assert.equal(created.emailSent, false);
      assert.equal(created.emailError?.code, ErrorCode.emailSendFailed);
      // Security review: the details never name the mail server's host or port.
      assert.doesNotMatch(created.emailError!.details, /127\.0\.0\.1|:1\b|ECONNREFUSED/);
      assert.match(created.emailError!.details, /could not be reached/);
    } finally {
      await svc.close();
    }
  });

  it('reports 333 when email delivery is not configured', async () => {
    const svc = await startTestService({ mailer: null });
    try {
      const created = await svc.client.createLinkSession({ email: EMAIL });
      assert.equal(created.emailSent, false);
      assert.equal(created.emailError?.code, ErrorCode.emailSendFailed);
      assert.match(created.emailError!.details, /not configured/);
    } finally {
      await svc.close();
    }
  });
});
