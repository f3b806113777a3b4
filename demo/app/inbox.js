// The Webhooks screen: the sandbox inbox the demo registered, read every 2 s: each delivery's event, the service's
// check of its Standard Webhooks signature, its headers and its body.
import { $, backend, h, localTime } from './dom.js';

const SIGNATURE_WORDS = { valid: 'Signature valid', invalid: 'Signature invalid', unsigned: 'Not signed' };
let shown = null;

function deliveryItem(delivery, open) {
  const signature = delivery.signature;
  const words = `${SIGNATURE_WORDS[signature.status] ?? signature.status}${signature.reason ? `: ${signature.reason}` : ''}`;
  let body = delivery.body;
  try {
    body = JSON.stringify(JSON.parse(delivery.body), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  const event = (() => { try { return JSON.parse(delivery.body); } catch { return {}; } })();
  return h('li', { dataset: { id: delivery.id ?? '' } }, h('details', { open },
    h('summary', {},
      h('span', { className: 'badge' }, delivery.action ?? 'unknown'),
      h('span', { className: 'what' }, event.status ? `post ${event.status}` : (delivery.id ?? '')),
      h('span', { className: `badge sig-${signature.status}` }, words),
      h('span', { className: 'meta' }, localTime(new Date(delivery.receivedAt)))),
    h('h3', {}, 'Headers'),
    h('dl', { className: 'headers' }, Object.entries(delivery.headers).flatMap(([name, value]) => [h('dt', {}, name), h('dd', {}, value)])),
    h('h3', {}, 'Body'),
    h('pre', { tabIndex: 0 }, body)));
}

async function refreshInbox() {
  const { deliveries } = await backend('/api/webhook-inbox');
  const key = deliveries.map((delivery) => `${delivery.id}${delivery.receivedAt}`).join();
  if (key === shown) return;
  shown = key;
  const open = new Set([...$('inbox').querySelectorAll('details[open]')].map((details) => details.parentElement.dataset.id));
  $('inbox').replaceChildren(...(deliveries.length > 0
    ? deliveries.map((delivery) => deliveryItem(delivery, open.has(delivery.id ?? '')))
    : [h('li', { className: 'empty' }, 'No webhook deliveries yet. Publish a post: its result arrives here a moment later.')]));
}

export function startInbox() {
  refreshInbox().catch(() => $('inbox').replaceChildren(h('li', { className: 'empty' }, 'The webhook inbox exists only while the service runs its sandbox.')));
  setInterval(() => refreshInbox().catch(() => {}), 2000);
}
