# Switchyard gateway image. Built by docker-compose.yml; the same image runs one instance or many.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 falls back to compiling when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .
# postinstall compiles src/ to dist/ and builds the web console (console/dist, its own lockfile).
# The test clients (test/clients/, ~900 MB) are a separate package only `npm test` installs.
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund

# The runtime image holds what `node dist/main.js` needs and nothing else: no compiler, no
# TypeScript sources or tests, no console build tools (vite, playwright-core live only in
# console/node_modules of the build stage), no test-only packages (pruned dev dependencies).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
COPY --from=build --chown=node:node /app/package.json /app/package-lock.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/console/dist ./console/dist
COPY --from=build --chown=node:node /app/bin ./bin
COPY --from=build --chown=node:node /app/switchyard.example.yaml ./
# The SQLite database and the generated gateway.secret live here: keep it on a volume, or a new
# container starts empty (and cannot decrypt the old channel secrets).
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
# Ready = the store, Redis (if configured) and the snapshot answer; see docs/deployment.md.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node (not npm) is PID 1's child-free entry, so SIGTERM reaches the gateway and it drains.
CMD ["node", "dist/main.js"]
