// The Posts screen and a post's page: each post's status in words ("partly published" when some networks failed),
// its text as text, each network's result, link and error; retry of the failed networks only; analytics as charts
// over time, comments; every destructive action confirmed first.
import { metricsChart } from './chart.js';
import { $, backend, confirmAction, h, localAndUtc, statusLabel, styledText } from './dom.js';
import { currentPosts, onPosts, refreshPosts } from './store.js';

/** One network of a post: `published` (with its link), `failed` (with the service's words), or still on its way. */
export function networkResult(post, platform) {
  const success = post.postIds.find((entry) => entry.platform === platform);
  if (success) return { state: success.status === 'success' ? 'published' : 'processing', url: success.postUrl || null, error: null };
  const error = post.errors.find((entry) => entry.platform === platform);
  if (error) return { state: 'failed', url: null, error };
  return { state: post.status === 'success' || post.status === 'error' ? 'processing' : post.status, url: null, error: null };
}

const platformsOf = (post) => post.platforms ?? [...new Set([...post.postIds, ...post.errors].map((entry) => entry.platform))];

/** What to do next about a failed network, in plain words. */
function errorAdvice(error) {
  if (error.relink) return 'Link the account again, then retry.';
  if (error.retryAvailable) return 'This can work on a retry.';
  return '';
}

function actionsFor(post) {
  const byStatus = { 'awaiting approval': ['approve'], scheduled: ['pause'], paused: ['unpause'], error: post.retried ? [] : ['retry'] };
  return [...(byStatus[post.status] ?? []), ...(post.status === 'deleted' ? [] : ['delete'])];
}

const ACTION_LABELS = { approve: 'Approve', pause: 'Pause', unpause: 'Resume', retry: 'Retry failed networks', delete: 'Delete' };

async function runAction(post, action) {
  if (action === 'delete' && !(await confirmAction('Delete this post? It is removed from the schedule and, where the network allows it, from the network.', 'Delete post'))) return;
  try {
    await backend(`/api/posts/${encodeURIComponent(post.id)}/${action}`, {});
  } catch (error) {
    $('compose-status').textContent = error.message;
  }
  await refreshPosts().catch(() => {});
}

function actionButtons(post) {
  return actionsFor(post).map((action) => h('button', { type: 'button', className: action === 'delete' ? 'danger small' : 'secondary small', onclick: () => void runAction(post, action) }, ACTION_LABELS[action]));
}

function postItem(post) {
  const label = statusLabel(post);
  const when = post.scheduleDate ? `for ${localAndUtc(new Date(post.scheduleDate))}` : `created ${localAndUtc(new Date(post.created))}`;
  const chips = platformsOf(post).map((platform) => {
    const result = networkResult(post, platform);
    return h('li', { className: `chip state-${result.state.replace(/\s/g, '-')}` }, `${platform}: ${result.state}`);
  });
  const text = h('p', { className: 'post-text' }, styledText(post.post.length > 140 ? `${post.post.slice(0, 140)}…` : post.post));
  return h('li', { dataset: { postId: post.id } },
    h('span', { className: `badge state-${label.replace(/\s/g, '-')}` }, label),
    text,
    h('p', { className: 'meta' }, when),
    h('ul', { className: 'chips', ariaLabel: 'Networks' }, chips),
    h('div', { className: 'row' }, h('button', { type: 'button', className: 'small', onclick: () => void openPost(post.id) }, 'Open'), actionButtons(post)));
}

function renderList(posts) {
  const visible = posts.filter((post) => post.status !== 'deleted');
  $('posts').replaceChildren(...(visible.length > 0 ? visible.map(postItem) : [h('li', { className: 'empty' }, 'No posts yet: write one in Compose, publish it now or schedule it.')]));
  // The open post page is drawn again only when its post changed (its charts are not redrawn every poll).
  if (openPostId) renderPostPage(false);
}

let renderedKey = '';

let openPostId = null;
let details = null;

/** The post page: opened from the list or the calendar; its analytics are read when it opens (and on demand). */
export async function openPost(id) {
  openPostId = id;
  details = null;
  renderPostPage(true);
  $('post-page').focus();
  await loadDetails();
}

async function loadDetails() {
  const id = openPostId;
  const post = currentPosts().find((entry) => entry.id === id);
  if (!post || !post.postIds.some((entry) => entry.status === 'success')) return;
  const answer = await backend(`/api/posts/${encodeURIComponent(id)}/details`).catch(() => null);
  if (openPostId !== id) return;
  details = answer;
  renderedKey = '';
  renderPostPage(false);
}

function resultsTable(post) {
  const rows = platformsOf(post).map((platform) => {
    const result = networkResult(post, platform);
    const link = result.url ? h('a', { href: result.url, target: '_blank', rel: 'noopener' }, `View on ${platform}`) : '—';
    const words = result.error ? `${result.error.message} ${errorAdvice(result.error)}`.trim() : result.state === 'published' ? 'Published.' : '—';
    // data-label: on a phone each row is a card with its labels (demo.css).
    return h('tr', {}, h('th', { scope: 'row' }, platform), h('td', { 'data-label': 'Result' }, h('span', { className: `badge state-${result.state.replace(/\s/g, '-')}` }, result.state)),
      h('td', { 'data-label': 'Link' }, link), h('td', { 'data-label': 'What happened' }, words));
  });
  return h('div', { className: 'table-scroll' }, h('table', { className: 'results' },
    h('caption', {}, 'Each network'),
    h('thead', {}, h('tr', {}, ['Network', 'Result', 'Link', 'What happened'].map((name) => h('th', { scope: 'col' }, name)))),
    h('tbody', {}, rows)));
}

function analyticsPart(post) {
  const published = post.postIds.filter((entry) => entry.status === 'success');
  if (published.length === 0) return h('p', { className: 'empty' }, 'Analytics and comments appear once the post is published.');
  if (!details) return h('p', { className: 'hint' }, 'Reading analytics…');
  const charts = published.map(({ platform }) => {
    const comments = Array.isArray(details.comments?.[platform]) ? details.comments[platform] : [];
    return h('section', { className: 'network-analytics', ariaLabel: `${platform} analytics` },
      h('h4', {}, platform),
      metricsChart(Array.isArray(details.history?.[platform]) ? details.history[platform] : [], `${platform} over time`),
      h('h5', {}, 'Comments'),
      comments.length > 0
        ? h('ul', { className: 'comments' }, comments.map((comment) => h('li', {}, h('strong', {}, comment.author ?? 'someone'), `: ${comment.comment}${comment.replyTo ? ' (reply)' : ''}`)))
        : h('p', { className: 'empty' }, 'No comments yet.'));
  });
  return h('div', {}, h('div', { className: 'analytics-grid' }, charts),
    h('button', { type: 'button', className: 'secondary small', onclick: () => void loadDetails() }, 'Read analytics again'));
}

function renderPostPage(scroll) {
  const page = $('post-page');
  const post = currentPosts().find((entry) => entry.id === openPostId);
  page.hidden = !post;
  if (!post) return;
  const key = JSON.stringify([post, details !== null]);
  if (!scroll && key === renderedKey) return;
  renderedKey = key;
  const failed = post.errors.map((entry) => entry.platform);
  $('post-page-heading').textContent = `Post: ${statusLabel(post)}`;
  $('post-page-body').replaceChildren(...[
    h('p', { className: 'post-text large' }, styledText(post.post)),
    h('p', { className: 'meta' }, post.scheduleDate ? `Scheduled for ${localAndUtc(new Date(post.scheduleDate))}` : `Created ${localAndUtc(new Date(post.created))}`),
    resultsTable(post),
    post.status === 'error' && !post.retried && failed.length > 0 ? h('p', { className: 'hint' }, `Retry sends the post again to ${failed.join(', ')} only; the networks it reached keep their post.`) : null,
    h('div', { className: 'row' }, actionButtons(post)),
    h('h3', {}, 'Analytics'),
    analyticsPart(post),
  ].filter(Boolean));
  if (scroll) page.scrollIntoView({ block: 'start' });
}

$('post-page-close').addEventListener('click', () => {
  const id = openPostId;
  openPostId = null;
  $('post-page').hidden = true;
  document.querySelector(`#posts li[data-post-id="${CSS.escape(id ?? '')}"] button`)?.focus();
});
onPosts(renderList);
