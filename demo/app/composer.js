// The Compose screen: text, networks, media with thumbnails, a schedule in the user's time zone (and its UTC), approval;
// per-network counters (the protocol's own counting code, as the service counts) and live previews checked by the
// service (`POST /api/validate/post` through the demo's backend: nothing is stored or published).
import { PUBLISHING_CAPABILITIES } from '@social-link-kit/protocol/publishing/capabilities.js';
import { measureText } from '@social-link-kit/protocol/publishing/text-length.js';
import { splitIntoThread } from '@social-link-kit/protocol/publishing/thread-split.js';
import { $, backend, h, localAndUtc, statusLabel, styledText } from './dom.js';
import { refreshPosts } from './store.js';

const UNIT_NAMES = { chars: 'characters', graphemes: 'characters', weighted: 'weighted characters', bytes: 'bytes' };
const IMAGE = /\.(jpe?g|png|gif|webp|avif)(\?|$)/i;
const VIDEO = /\.(mp4|mov|webm)(\?|$)/i;

/** The networks: one box per linked account (a linked account appears at once, ticks are kept). */
export function renderNetworks(user) {
  const fieldset = $('post-platforms');
  const ticked = new Set([...fieldset.querySelectorAll('input:checked')].map((box) => box.value));
  fieldset.querySelectorAll('label').forEach((label) => label.remove());
  const override = $('override-platform');
  override.querySelectorAll('option:not([value=""])').forEach((option) => option.remove());
  for (const platform of user.activeSocialAccounts) {
    const box = h('input', { type: 'checkbox', value: platform, name: 'platform', checked: ticked.has(platform) });
    fieldset.append(h('label', { className: 'chip' }, box, ` ${platform}`));
    override.append(new Option(platform, platform));
  }
  $('no-networks').hidden = user.activeSocialAccounts.length > 0;
  schedulePreview();
}

const checkedPlatforms = () => [...document.querySelectorAll('#post-platforms input:checked')].map((box) => box.value);

/** The request as the service takes it (POST /api/post); throws on unreadable extra JSON. */
function postRequest() {
  const text = $('post-text').value;
  const overridePlatform = $('override-platform').value;
  const body = { post: overridePlatform && $('override-text').value ? { default: text, [overridePlatform]: $('override-text').value } : text, platforms: checkedPlatforms() };
  // The service takes only YYYY-MM-DDThh:mm:ssZ: the user's local time, converted to UTC here.
  const when = scheduledAt();
  if (when) body.scheduleDate = when.toISOString().replace(/\.\d{3}Z$/, 'Z');
  if ($('post-approval').checked) body.requiresApproval = true;
  if ($('post-comment').value) body.firstComment = { comment: $('post-comment').value };
  const mediaUrls = mediaList();
  if (mediaUrls.length > 0) body.mediaUrls = mediaUrls;
  // The rest of the spec's request (network options, isVideo…) as the integrator's own JSON; the service checks it.
  if ($('post-extra').value.trim()) Object.assign(body, JSON.parse($('post-extra').value));
  return body;
}

const mediaList = () => $('post-media').value.split('\n').map((line) => line.trim()).filter(Boolean);
const scheduledAt = () => ($('post-schedule').value ? new Date($('post-schedule').value) : null);
const textFor = (platform) => ($('override-platform').value === platform && $('override-text').value ? $('override-text').value : $('post-text').value);

/** The styles' tags are not sent as text: the count is of what remains (the service's rendition, when it sends one). */
const withoutStyleTags = (text) => text.replace(/<\/?(?:b|strong|em|i)>/gi, '');

/** Where the service's answer gives this network's rendition (the text it would send), if it does. */
function renditionOf(answer, platform) {
  const renditions = answer?.renditions;
  const found = Array.isArray(renditions) ? renditions.find((entry) => entry.platform === platform) : renditions?.[platform];
  if (!found) return null;
  const parts = Array.isArray(found.parts) ? found.parts.map((part) => (typeof part === 'string' ? part : part.text)) : null;
  return { text: typeof found.text === 'string' ? found.text : parts?.join('\n\n') ?? null, parts };
}

function counter(platform, text) {
  const capabilities = PUBLISHING_CAPABILITIES[platform];
  if (!capabilities) return h('span');
  const { max, unit } = capabilities.text;
  const used = measureText(text, unit);
  const over = used > max;
  const note = over ? (capabilities.threads ? ' · becomes a thread' : ' · too long') : '';
  return h('span', { className: `counter${over ? (capabilities.threads ? ' warn' : ' over') : ''}` }, `${used} / ${max} ${UNIT_NAMES[unit]}${note}`);
}

/**
 * Until the service's rendition arrives, a text too long for one post is split here by the service's own splitter
 * (shared through the protocol); the service's answer then shows exactly what it will send.
 */
function localThread(platform, text) {
  const capabilities = PUBLISHING_CAPABILITIES[platform];
  if (!capabilities?.threads || measureText(text, capabilities.text.unit) <= capabilities.text.max) return null;
  return { text, parts: splitIntoThread(text, capabilities.text.max, capabilities.text.unit) };
}

function previewCard(platform, answer) {
  const errors = (answer?.errors ?? []).filter((entry) => entry.platform === platform);
  const rendition = renditionOf(answer, platform) ?? localThread(platform, withoutStyleTags(textFor(platform)));
  const text = rendition?.text ?? withoutStyleTags(textFor(platform));
  const body = h('div', { className: 'preview-text' });
  if (rendition?.parts && rendition.parts.length > 1) rendition.parts.forEach((part, i) => body.append(h('p', {}, h('span', { className: 'part' }, `${i + 1}/${rendition.parts.length}`), ' ', part)));
  else body.append(styledText(rendition?.text ?? textFor(platform)));
  const thumbs = mediaList().slice(0, 4).map((url) => thumbnail(url, 'small'));
  const verdict = errors.length > 0
    ? h('p', { className: 'verdict bad' }, errors.map((entry) => entry.message).join(' '))
    : answer?.status === 'success' ? h('p', { className: 'verdict ok' }, 'Ready to publish.') : null;
  return h('li', { className: 'preview', dataset: { platform } },
    h('div', { className: 'preview-head' }, h('strong', {}, platform), counter(platform, text)),
    body, thumbs.length > 0 ? h('div', { className: 'thumbs' }, thumbs) : null, verdict);
}

let previewTimer = null;
let previewRun = 0;

/** Previews follow the typing, checked by the service a moment after the last keystroke. */
export function schedulePreview() {
  clearTimeout(previewTimer);
  const platforms = checkedPlatforms();
  renderPreviews(platforms, null);
  if (platforms.length === 0) return;
  previewTimer = setTimeout(() => void checkPreview(platforms), 350);
}

function renderPreviews(platforms, answer) {
  $('previews').replaceChildren(...platforms.map((platform) => previewCard(platform, answer)));
  if (platforms.length === 0) $('preview-state').textContent = 'Pick a network and write something to see how each network gets it.';
}

async function checkPreview(platforms) {
  const run = ++previewRun;
  let answer;
  try {
    answer = await backend('/api/validate', postRequest());
  } catch (error) {
    answer = error.answer ?? { status: 'error', message: error.message };
  }
  if (run !== previewRun) return;
  renderPreviews(platforms, answer);
  const general = answer.status === 'error' && !(answer.errors?.length > 0) ? answer.message : null;
  // The hash names each network's text and media (rendition.ts); sent back on publish, a change since refuses it.
  const hash = answer.renditionHash ? h('code', { className: 'rendition-hash', title: 'renditionHash' }, String(answer.renditionHash)) : null;
  $('preview-state').replaceChildren(general ? `The service says: ${general}` : 'Checked by the service.', ...(general || !hash ? [] : [' Rendition ', hash]));
}

/** A thumbnail of one media address: the image itself, or a labelled tile for a video (or an image it cannot show). */
function thumbnail(url, size = '') {
  const name = decodeURIComponent(new URL(url, location.href).pathname.split('/').pop() ?? url);
  const tile = () => h('span', { className: `thumb tile ${size}` }, VIDEO.test(url) ? `▶ ${name}` : name);
  if (!IMAGE.test(url)) return tile();
  const image = h('img', { className: `thumb ${size}`, src: url, alt: name, loading: 'lazy' });
  image.addEventListener('error', () => image.replaceWith(tile()));
  return image;
}

function renderThumbs() {
  $('media-thumbs').replaceChildren(...mediaList().map((url) => h('li', {}, thumbnail(url))));
}

function renderScheduleNote() {
  const when = scheduledAt();
  $('schedule-utc').textContent = when && !Number.isNaN(when.getTime()) ? `Publishes ${localAndUtc(when)}.` : 'Publishes now.';
}

$('composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const result = await backend('/api/posts', postRequest());
    $('compose-status').textContent = `Post ${result.id}: ${statusLabel(result)}`;
  } catch (error) {
    // A post refused on some networks still exists: the list shows where it went.
    const post = error.answer?.id && Array.isArray(error.answer.postIds) ? error.answer : null;
    $('compose-status').textContent = post ? `Post ${post.id}: ${statusLabel(post)} (${error.message})` : `Not published: ${error.message}`;
  }
  void refreshPosts().catch(() => {});
});

$('composer').addEventListener('input', (event) => {
  if (event.target.id === 'post-media') renderThumbs();
  if (event.target.id === 'post-schedule') renderScheduleNote();
  schedulePreview();
});
$('composer').addEventListener('change', () => schedulePreview());

// Media: the sandbox media host (on the service's origin) offers sample files; WebP and HEIC show the conversion
// (instagram, linkedin, tiktok… get a JPEG copy at a signed address, visible in the sandbox feed).
const MEDIA_SAMPLES = ['photo.jpg', 'photo.png', 'photo.webp', 'photo.heic', 'photo.avif', 'video-10s.mp4'];
fetch('/config.json')
  .then((response) => response.json())
  .then(({ serviceOrigin, sandboxTwitterApp }) => {
    for (const name of MEDIA_SAMPLES) $('media-sample').append(new Option(name, `${serviceOrigin}/sandbox/media/${name}`));
    if (sandboxTwitterApp) {
      // X needs the integrator's own developer app on every twitter-bound call; on the sandbox, the sandbox's app.
      $('twitter-app-note').textContent = `X (twitter) posts are signed with the sandbox X developer app: this demo's backend sends API key ${sandboxTwitterApp.apiKey} and API secret ${sandboxTwitterApp.apiSecret} (X-Twitter-OAuth1-Api-Key/-Secret). With real X, your backend sends your own app's keys.`;
      $('twitter-app-note').hidden = false;
    }
  })
  .catch(() => {});
$('media-add-button').addEventListener('click', () => {
  const url = $('media-sample').value;
  if (!url) return;
  const field = $('post-media');
  field.value = field.value.trim() ? `${field.value.trim()}\n${url}` : url;
  renderThumbs();
  schedulePreview();
});
backend('/api/feed-url').then(({ url }) => ($('feed-link').href = url), () => {});
renderScheduleNote();
