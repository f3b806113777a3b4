// The system Chromium every browser run uses (tests, benchmarks): Debian's package at /usr/bin/chromium, started
// with the flags these machines need: no sandbox as root, no GPU, and no background
// networking, whose connections the closed network refuses.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
