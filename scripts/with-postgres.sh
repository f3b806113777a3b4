#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster: initdb in a temp dir, start it on a free loopback port
# (or PG_TEST_PORT; fsync off: test data only), export TEST_DATABASE_URL, run "$@", then stop and delete it.
# Usage: bash scripts/with-postgres.sh npm run test:server
set -euo pipefail
BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
PORT=${PG_TEST_PORT:-$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")}
DIR=$(mktemp -d /tmp/slk-pg.XXXXXX)
chmod 755 "$DIR"
RUN_AS=()
if [ "$(id -u)" = "0" ]; then chown postgres "$DIR"; RUN_AS=(runuser -u postgres --); fi
stop() {
  "${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
"${RUN_AS[@]}" "$BIN/initdb" -D "$DIR/data" -U app --auth=trust -E UTF8 >/dev/null
"${RUN_AS[@]}" "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/log" -w \
  -o "-p $PORT -k $DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300" start >/dev/null
export TEST_DATABASE_URL="postgres://app@127.0.0.1:$PORT/postgres"
"$@"
