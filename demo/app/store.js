// The posts, read from the demo's backend every 3 s and handed to each screen that shows them (list, calendar).
import { backend } from './dom.js';

const listeners = [];
let posts = [];

export const onPosts = (listener) => listeners.push(listener);
export const currentPosts = () => posts;

export async function refreshPosts() {
  const { history } = await backend('/api/posts');
  posts = history;
  for (const listener of listeners) listener(posts);
}

export function startPolling() {
  refreshPosts().catch(() => {});
  setInterval(() => refreshPosts().catch(() => {}), 3000);
}
