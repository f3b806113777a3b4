// The Calendar screen: a week (Monday first, in the user's time zone) of scheduled posts; a post opens its page.
import { $, h, statusLabel, timeZone } from './dom.js';
import { openPost } from './posts.js';
import { currentPosts, onPosts } from './store.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayFormat = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'short' });
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
let weekOffset = 0;

function weekStart() {
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  const monday = new Date(today.getTime() - ((today.getDay() + 6) % 7) * DAY_MS);
  monday.setDate(monday.getDate() + weekOffset * 7);
  return monday;
}

function render(posts) {
  const start = weekStart();
  const days = Array.from({ length: 7 }, (_, i) => new Date(start.getFullYear(), start.getMonth(), start.getDate() + i));
  const end = new Date(start.getFullYear(), start.getMonth(), start.getDate() + 7);
  const scheduled = posts
    .filter((post) => post.scheduleDate && post.status !== 'deleted')
    .map((post) => ({ post, at: new Date(post.scheduleDate) }))
    .filter(({ at }) => at >= start && at < end)
    .sort((a, b) => a.at - b.at);
  $('week-label').textContent = `${dayFormat.format(days[0])} – ${dayFormat.format(days[6])} (${timeZone()})`;
  const todayKey = new Date().toDateString();
  $('week').replaceChildren(
    ...days.map((day) => {
      const entries = scheduled.filter(({ at }) => at.toDateString() === day.toDateString());
      const label = statusLabel;
      return h('li', { className: `day${day.toDateString() === todayKey ? ' today' : ''}${entries.length === 0 ? ' free' : ''}` },
        h('div', { className: 'day-head' }, h('h3', {}, dayFormat.format(day)),
          h('button', { type: 'button', className: 'add', ariaLabel: `Schedule a post on ${dayFormat.format(day)}`, onclick: () => scheduleOn(day) }, '+')),
        entries.length > 0
          ? h('ul', {}, entries.map(({ post, at }) => h('li', {}, h('button', { type: 'button', className: `event state-${label(post).replace(/\s/g, '-')}`, onclick: () => void openPost(post.id) },
            h('span', { className: 'time' }, timeFormat.format(at)), h('span', { className: 'what' }, post.post.replace(/<[^>]*>/g, '').slice(0, 60)), h('span', { className: 'sr-status' }, ` (${label(post)})`)))))
          : h('p', { className: 'empty' }, 'Nothing scheduled'));
    }),
  );
}

/**
 * Scheduling from the calendar: the composer gets that day at 09:00 in the user's time zone (today: the next full
 * hour), and the focus moves to its text.
 */
function scheduleOn(day) {
  const at = new Date(day.getFullYear(), day.getMonth(), day.getDate(), 9, 0, 0);
  const now = new Date();
  if (at <= now) at.setTime(Math.ceil(now.getTime() / 3_600_000) * 3_600_000);
  const pad = (n) => String(n).padStart(2, '0');
  const field = $('post-schedule');
  field.value = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
  field.dispatchEvent(new Event('input', { bubbles: true }));
  $('compose').scrollIntoView({ block: 'start' });
  $('post-text').focus();
}

$('week-prev').addEventListener('click', () => { weekOffset -= 1; render(currentPosts()); });
$('week-next').addEventListener('click', () => { weekOffset += 1; render(currentPosts()); });
onPosts(render);
render([]);
