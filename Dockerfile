# syntax=docker/dockerfile:1
# The OpenPractice runtime in a container (docs/deployment.md, "A container"):
#   docker build -t openpractice .
#   docker run -d --name openpractice -p 127.0.0.1:8080:8080 -v openpractice-data:/var/lib/openpractice openpractice
# The data volume holds the keys and, without DATABASE_URL, the SQLite database.

# Build: every dependency (the build needs the dev ones), the packages built, then the dev dependencies removed.
FROM node:24-bookworm-slim AS build
WORKDIR /opt/openpractice
COPY package.json package-lock.json .nvmrc tsconfig.json tsconfig.base.json tsup.base.ts ./
COPY scripts ./scripts
COPY packages ./packages
COPY adapters ./adapters
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

# Run: the built release on the same Node, as a user of its own.
FROM node:24-bookworm-slim
ENV NODE_ENV=production OPENPRACTICE_DATA_DIR=/var/lib/openpractice HOST=0.0.0.0 PORT=8080
RUN useradd --system --uid 10001 --user-group --home-dir /var/lib/openpractice --shell /usr/sbin/nologin openpractice \
  && install -d -m 0700 -o openpractice -g openpractice /var/lib/openpractice
COPY --from=build /opt/openpractice /opt/openpractice
USER openpractice
WORKDIR /var/lib/openpractice
VOLUME /var/lib/openpractice
EXPOSE 8080
# Healthy once the database answers (GET /readyz); node's fetch, as the slim image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM (docker stop) finishes the requests in flight (up to OPENPRACTICE_SHUTDOWN_TIMEOUT_MS, 10 s) and exits 0:
# give docker stop longer than that (--time 30).
CMD ["node", "/opt/openpractice/packages/runtime/bin/openpractice.mjs", "serve"]
