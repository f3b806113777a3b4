/**
 * @module
 * The hosted page's English texts: the fallback of every other locale and the keys they must all translate
 * (each locale file is typed `Catalogue<HostedTextKey>`, so a missing key does not compile). `{name}` marks a
 * value; an object holds plural forms (../translate.ts).
 */
import type { Catalogue } from '../translate.js';

export const en = {
  loading: 'Loading…',
  heading: 'Connect your social accounts',
  brandedHeading: 'Connect your social accounts to {app}',
  subtitle: 'Profile: {title}',
  permission: '{app} will be able to publish on your behalf on the accounts you connect.',
  permissionGeneric: 'This app will be able to publish on your behalf on the accounts you connect.',
  logoAlt: '{app} logo',
  expiresIn: 'This link works for {time} more.',
  expiresSoon: 'This link expires in {time}.',
  hoursMinutes: '{hours} h {minutes} min',
  linkedCount: { zero: 'No account connected yet.', one: '{count} account connected.', other: '{count} accounts connected.' },
  connect: 'Connect',
  connectLabel: 'Connect {network}',
  disconnect: 'Disconnect',
  disconnectLabel: 'Disconnect {network}',
  disconnectConfirm: 'Disconnect {network}? The app will no longer be able to publish there.',
  keepConnected: 'Keep',
  connected: 'Connected',
  connectedAs: 'Connected as {name}',
  notConnected: 'Not connected',
  sandboxNote: 'Sandbox: no real {network} account is connected.',
  opening: 'Opening {network}…',
  waiting: 'Finish signing in to {network} in the window that opened.',
  saving: 'Saving your {network} account…',
  linked: '{network} is connected.',
  denied: 'You did not allow access to {network}. Connect again whenever you are ready.',
  popupClosed: 'The {network} window was closed before you finished. Select Connect to try again.',
  popupBlocked: 'Your browser blocked the {network} window. Allow pop-ups for this page and try again.',
  failed: '{network} could not be connected: {message} Try again in a moment.',
  disconnected: '{network} was disconnected.',
  credentialsTitle: 'Connect {network}',
  handle: 'Handle',
  handlePlaceholder: 'name.bsky.social',
  appPassword: 'App password',
  appPasswordHint: 'Create an app password in {network} under Settings → Privacy and security → App passwords. Never use your main password.',
  botHint: 'Open {bot} in {network} and send this code:',
  botOpen: 'Open the bot in {network}',
  botWaiting: 'Waiting for the bot to receive your code…',
  simulateBot: 'Simulate the bot (sandbox)',
  botCode: 'Code',
  cancel: 'Cancel',
  done: 'Done',
  backToApp: 'Return to the app',
  invalidTitle: 'This link is no longer valid',
  invalidBody: 'It may have been used up or replaced. Go back to the app and ask for a new link.',
  expiredTitle: 'This link has expired',
  expiredBody: 'For your security, a linking link works only for a few minutes. Go back to the app and start again: your connected accounts are kept.',
  loadFailed: 'The linking page could not load',
  loadFailedBody: 'Check your connection, then reload the page.',
  reload: 'Reload',
  webviewNotice: 'This app’s built-in browser may be refused by some networks. If signing in fails, open this page in your browser (Safari, Chrome…).',
} satisfies Catalogue<string>;

export type HostedTextKey = keyof typeof en;
