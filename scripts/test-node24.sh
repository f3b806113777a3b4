#!/usr/bin/env bash
# The server suites (SQLite) and the e2e suite on Node 24, in a copy of this working tree (.tmp/node24-repo) with
# its own node_modules: native modules (better-sqlite3) are built there against Node 24's own headers, so the
# Node 20 run in this checkout can go on beside it (every test takes its own free ports and temp folders).
# Usage: bash scripts/test-node24.sh [log file]     (.ci/run runs it in the background)
set -euo pipefail
cd "$(dirname "$0")/.."
NODE24_BIN=$(bash scripts/node24.sh)
COPY=.tmp/node24-repo
rm -rf "$COPY" && mkdir -p "$COPY"
tar --exclude=./.git --exclude=./.tmp --exclude='./node_modules' --exclude='./*/node_modules' --exclude=./dist \
  --exclude=./hosted/dist --exclude=./server/dist --exclude=./data --exclude=./test-results -cf - . | tar -xf - -C "$COPY"
cd "$COPY"
export PATH="$NODE24_BIN:$PATH" npm_config_nodedir="$NODE24_BIN/.."
echo "node $(node --version) in $PWD"
npm ci --no-audit --no-fund --loglevel=error
# better-sqlite3 12 is the last line that runs on Node 20, and on Node 24 it aborts at process exit (a statement
# finalised after the environment's teardown); 13 needs Node 22+. So Node 22/24 get 13, as the container does.
npm pkg set dependencies.better-sqlite3=13.2.0 --workspace server
npm install --no-audit --no-fund --loglevel=error
node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get(); console.log('better-sqlite3 loads on', process.version)"
npm run build
npm run test:server
npx playwright test
