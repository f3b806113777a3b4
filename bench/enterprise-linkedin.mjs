// The setup the publishing benches share: the service's one account on the enterprise plan (100,000 posts a month,
// so the default plan's quota cannot end a run with 429s) and a sandbox linkedin account linked to its primary profile.
export async function enterpriseWithLinkedin(origin, apiKey, adminToken) {
  const admin = { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' };
  const { accounts } = await (await fetch(`${origin}/admin/api/accounts`, { headers: admin })).json();
  const planned = await fetch(`${origin}/admin/api/accounts/${accounts[0].id}`, { method: 'PATCH', headers: admin, body: JSON.stringify({ plan: 'enterprise' }) });
  if (!planned.ok) throw new Error(`set the plan: ${planned.status} ${await planned.text()}`);
  const linked = await fetch(`${origin}/api/sandbox/accounts`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ platform: 'linkedin' }),
  });
  if (!linked.ok) throw new Error(`link linkedin: ${linked.status} ${await linked.text()}`);
}
