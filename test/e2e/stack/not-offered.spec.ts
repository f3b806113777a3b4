/**
 * Production shape (issue 26): with the sandbox off, a network this service has no credentials for is listed on the
 * hosted page as not available here, without a Connect button, never faked; a network with credentials is offered.
 * The service runs as in production (NODE_ENV=production, no SANDBOX_NETWORKS), so no sandbox route answers.
 */
import { expect, test } from '../support/fixtures.js';

const ADMIN = `admin_${'a'.repeat(30)}`;

test.use({
  stackOptions: {
    env: {
      NODE_ENV: 'production',
      SANDBOX_NETWORKS: '',
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
      LINKEDIN_CLIENT_ID: 'real-linkedin-id',
      LINKEDIN_CLIENT_SECRET: 'real-linkedin-secret',
      ADMIN_TOKEN: ADMIN,
    },
  },
});

test('a network without credentials is said to be unavailable; one with credentials is offered', async ({ page, stack, integrator }) => {
  // Production writes no development account: the operator makes one through the admin API.
  const admin = await fetch(`${stack.serviceUrl}/admin/api/accounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Operator test', plan: 'business', domains: [new URL(integrator.origin).hostname] }),
  });
  const created = (await admin.json()) as { apiKey: string };
  expect(admin.status, JSON.stringify(created)).toBe(200);
  const session = await fetch(`${stack.serviceUrl}/api/profiles/link-sessions`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${created.apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ origin: integrator.origin, allowedSocial: ['linkedin', 'facebook', 'bluesky'] }),
  });
  const json = (await session.json()) as { url: string };
  expect(session.status, JSON.stringify(json)).toBe(200);
  await page.goto(json.url);
  await expect(page.getByRole('heading', { name: 'Connect your social accounts' })).toBeVisible();
  for (const network of ['Facebook', 'Bluesky']) {
    const row = page.locator('.network', { hasText: network });
    await expect(row).toContainText(`${network} cannot be connected on this service.`);
    await expect(row.getByRole('button')).toHaveCount(0);
  }
  const linkedin = page.locator('.network', { hasText: 'LinkedIn' });
  await expect(linkedin.getByRole('button', { name: 'Connect LinkedIn' })).toBeEnabled();
  await expect(linkedin).not.toContainText('cannot be connected');
  await expect(linkedin).not.toContainText('Sandbox');
  expect((await fetch(`${stack.serviceUrl}/sandbox/authorize`)).status).toBe(404);
});
