# The link-session service with its hosted page and widget build. Multi-stage: the build stage has the dev tools and
# compiles everything (`npm run build`: widget, hosted page, the service's JavaScript in server/dist), the runtime
# stage has only production dependencies and the built files, and runs plain `node` as the unprivileged `node` user.
# Build: docker build -t social-link-kit .      Run with PostgreSQL: docker compose up (compose.yaml)
# The same layout is built into a folder and run by scripts/container-smoke.sh (no container engine in CI).

FROM node:24-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY server/package.json server/
COPY demo/package.json demo/
COPY src/protocol/package.json src/protocol/
COPY sandbox/package.json sandbox/
# npm ci runs `prepare`, which skips its library build until the sources are copied.
COPY scripts/prepare.mjs scripts/
RUN npm ci
COPY . .
# better-sqlite3 12 (the lock file's, the last line that runs on Node 20) aborts at exit on Node 24; 13 needs Node 22+.
RUN npm pkg set dependencies.better-sqlite3=13.2.0 --workspace server && npm install --no-audit --no-fund
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8787 DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json /app/package-lock.json /app/LICENSE ./
COPY --from=build --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/server/package.json ./server/
COPY --from=build --chown=root:root /app/server/bin ./server/bin
COPY --from=build --chown=root:root /app/server/dist ./server/dist
COPY --from=build --chown=root:root /app/dist/cdn ./dist/cdn
COPY --from=build --chown=root:root /app/hosted/dist ./hosted/dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8787
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s CMD ["node", "-e", "fetch('http://127.0.0.1:'+process.env.PORT+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "server/dist/main.js"]
