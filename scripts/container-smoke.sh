#!/usr/bin/env bash
# The container smoke test (scripts/container-smoke.mjs) against a throwaway PostgreSQL. Needs `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/with-postgres.sh node scripts/container-smoke.mjs
