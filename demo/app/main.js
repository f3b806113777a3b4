// The demo integrator page: its screens (accounts, compose, calendar, posts, webhooks, events), plain DOM.
import { onAccounts, refreshAccounts } from './connect.js';
import { renderNetworks } from './composer.js';
import './posts.js';
import './calendar.js';
import { startInbox } from './inbox.js';
import { startPolling } from './store.js';

onAccounts(renderNetworks);
void refreshAccounts();
startPolling();
startInbox();

// Load the locale data for times while the page is idle after loading, so no click pays for it.
(window.requestIdleCallback ?? setTimeout)(() => new Date().toLocaleTimeString());
