# Production image of Min Side: one Node.js process serving the SPA, /api and /idp.
# Build:  docker build -t minside:$(git rev-parse --short HEAD) .
# Run:    docker run --rm -p 3000:3000 -e NODE_ENV=development -e DATABASE_URL=postgres://… minside:<tag>
#         (a trial: production refuses the test payment provider until a real one is configured)
# See docs/operations.md for the exact steps, the environment and Kubernetes.

# Node 24 LTS (supported until April 2028): the runtime the tests run on (ADR 023).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------------------------------------------------------------------------------------
# build: every dependency (dev included), then the web bundle (Vite) and the server bundle
# (esbuild, with the SQL migrations copied to apps/server/dist/migrations).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Playwright is a dev dependency of the test workspace; no browser belongs in an image.
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# The manifests first, so the dependency layer is reused while only sources change.
COPY package.json package-lock.json ./
COPY packages/titles/package.json packages/titles/
COPY packages/domain/package.json packages/domain/
COPY packages/bank-files/package.json packages/bank-files/
COPY packages/vipps/package.json packages/vipps/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---------------------------------------------------------------------------------------
# prod-deps: only the server's runtime dependencies, from the same lockfile. The workspace
# packages (@minside/*) are inlined into the bundle, so their links are dropped, and so is the
# Node binary npm install brings for development (ADR 023): the image has its own. No install
# scripts: no runtime dependency needs one (protobufjs' only prints a notice).
FROM ${NODE_IMAGE} AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/titles/package.json packages/titles/
COPY packages/domain/package.json packages/domain/
COPY packages/bank-files/package.json packages/bank-files/
COPY packages/vipps/package.json packages/vipps/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --workspace=apps/server --ignore-scripts --no-audit --no-fund \
  && rm -rf node_modules/@minside node_modules/node-linux-* \
  && npm cache clean --force

# ---------------------------------------------------------------------------------------
# runtime: node_modules + the two bundles + the migrations, owned by root and read-only to
# the process user. Layout = the repository's, so main.js finds ../../web/dist by itself.
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    LOG_LEVEL=info
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
# apps/server/package.json carries "type": "module" for the ESM bundle.
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
# DATA_DIR is only used without DATABASE_URL (embedded PGlite, e.g. a trial `docker run`);
# the official image's `node` user (uid 1000) owns it and nothing else.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# Kubernetes uses its own probes (deploy/kubernetes); this serves docker run / compose.
# The slim image has no curl, so Node's fetch asks /readyz (200 once the database answers).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Node itself is PID 1: src/bin/server.ts (dist/main.js) handles SIGTERM (drain, close the pool, exit 0).
CMD ["node", "apps/server/dist/main.js"]
