# Switchyard gateway image. Built by docker-compose.yml; the same image runs one instance or many.
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 falls back to compiling when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .
# postinstall compiles src/ to dist/ and builds the web console (console/dist, its own lockfile).
RUN npm ci --no-audit --no-fund \
 && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
COPY --from=build --chown=node:node /app /app
USER node
EXPOSE 8080
# Ready = the store, Redis (if configured) and the snapshot answer; see docs/deployment.md.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# node (not npm) is PID 1's child-free entry, so SIGTERM reaches the gateway and it drains.
CMD ["node", "dist/main.js"]
