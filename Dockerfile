# syntax=docker/dockerfile:1
# Production image (README « Production with containers », decision 044). Two stages: the build
# installs every dependency and runs the same commands as CI (`npm ci`, `npm run build`); the
# runtime keeps the built tree without the development dependencies and runs `npm run serve` as
# an unprivileged user. scripts/container-recipe.test.ts checks these commands against package.json.
ARG NODE_IMAGE=node:24-bookworm-slim
# Same major as the compose file's PostgreSQL: pg_dump refuses a newer server (npm run db:backup).
ARG PG_MAJOR=17

FROM ${NODE_IMAGE} AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build \
 && npm prune --omit=dev

FROM ${NODE_IMAGE} AS runtime
ARG PG_MAJOR
# pg_dump / pg_restore for `npm run db:backup` and `db:backup-check` from inside the container,
# from the PostgreSQL project's own repository (Debian's bookworm ships 15 only).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates postgresql-common \
 && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
 && apt-get install -y --no-install-recommends "postgresql-client-${PG_MAJOR}" \
 && rm -rf /var/lib/apt/lists/*
# As `npm run serve` sets them; MALLOC_ARENA_MAX is glibc's (decision 081).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
WORKDIR /app
# The node image's unprivileged user (uid 1000) owns only the data directory and backups/ (which
# `npm run db:backup` creates in the working directory); the code stays root's.
COPY --from=build /app /app
RUN mkdir -p /data /app/backups && chown node:node /data /app/backups
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness only (the process answers); load balancers route on /readyz (database and drain).
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# npm forwards SIGTERM to the server, whose drain takes up to 15 s (compose: stop_grace_period).
CMD ["npm", "run", "serve"]
