/**
 * Every text of the hosted page, in one table so it can be translated. `{name}` marks a value filled in.
 */
export const texts = {
  loading: 'Loading…',
  heading: 'Connect your social accounts',
  subtitle: 'for {title}',
  expiresIn: 'This link works for {time} more.',
  expiresSoon: 'This link expires in {time}.',
  connect: 'Connect',
  connectLabel: 'Connect {network}',
  disconnect: 'Disconnect',
  disconnectLabel: 'Disconnect {network}',
  connected: 'Connected',
  connectedAs: 'Connected as {name}',
  notConnected: 'Not connected',
  opening: 'Opening {network}…',
  waiting: 'Finish signing in to {network} in the window that opened.',
  saving: 'Saving your {network} account…',
  linked: '{network} is connected.',
  denied: 'You did not allow access to {network}.',
  popupClosed: 'The {network} window was closed before you finished.',
  popupBlocked: 'Your browser blocked the {network} window. Allow pop-ups for this page and try again.',
  failed: '{network} could not be connected: {message}',
  disconnected: '{network} was disconnected.',
  credentialsTitle: 'Connect {network}',
  handle: 'Handle',
  handlePlaceholder: 'name.bsky.social',
  appPassword: 'App password',
  appPasswordHint: 'Create an app password in {network} under Settings → Privacy and security → App passwords. Never use your main password.',
  botHint: 'Open {bot} in {network} and send this code:',
  botOpen: 'Open the bot in {network}',
  botWaiting: 'Waiting for the bot to receive your code…',
  botCode: 'Code',
  cancel: 'Cancel',
  done: 'Done',
  backToApp: 'Return to the app',
  invalidTitle: 'This link is no longer valid',
  invalidBody: 'It may have expired or been replaced. Go back to the app and ask for a new link.',
  expiredTitle: 'This link has expired',
  loadFailed: 'The linking page could not load. Check your connection and reload.',
  reload: 'Reload',
  webviewNotice: 'This app’s built-in browser may be refused by some networks. If signing in fails, open this page in your browser (Safari, Chrome…).',
} as const;

export type TextKey = keyof typeof texts;

export function t(key: TextKey, values: Record<string, string> = {}): string {
  return texts[key].replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? '');
}

export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours} h ${String(minutes).padStart(2, '0')} min`;
  return `${minutes}:${String(seconds).padStart(2, '0')}`;
}
