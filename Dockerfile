# syntax=docker/dockerfile:1.7
#
# One image per service from one Dockerfile:
#   docker build --build-arg SERVICE=gateway -t stormhook/gateway:0.1.0 .
# SERVICE is one of gateway, identity, geo, ingest, query, alarm-matcher, notifier. The build stage
# compiles the workspace once (shared by all seven builds through the layer cache); the runtime
# stage holds only the service's compiled code and production dependencies (`pnpm deploy`).
# `npm run images` builds all seven with podman or Docker, from base images it builds itself
# (NODE_IMAGE with npm for the build stage, RUNTIME_IMAGE with node and tini only); see
# tools/devstack/src/images. Behind a TLS-intercepting proxy, pass its CA bundle as the build
# secret `ca` (`--secret id=ca,src=bundle.pem`): it is mounted for the steps that reach the npm
# registry only and never stored in a layer.

ARG NODE_IMAGE=node:24.21.0-slim
ARG RUNTIME_IMAGE=node:24.21.0-slim

FROM ${NODE_IMAGE} AS build
# The version the repository pins (package.json packageManager, scripts/bootstrap.mjs).
ARG PNPM_VERSION=10.34.9
ENV PNPM_HOME=/pnpm CI=true
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
 && npm install --global --no-audit --no-fund "pnpm@${PNPM_VERSION}" \
 && pnpm config set store-dir /pnpm/store
WORKDIR /src
# Dependencies first: this layer is rebuilt only when the lockfile changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN --mount=type=cache,id=stormhook-pnpm,target=/pnpm/store --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
 && pnpm fetch
COPY . .
RUN --mount=type=cache,id=stormhook-pnpm,target=/pnpm/store pnpm install --offline --frozen-lockfile
# Compile every service (and what they reference); .dockerignore keeps host dist/ out, so the
# image never carries a developer's stale output.
RUN pnpm exec tsc --build services/gateway services/identity services/geo services/ingest \
      services/query services/alarm-matcher services/notifier
# The customer console's browser bundle (web/console, esbuild): the gateway serves it at /console.
RUN node web/console/build.mjs

ARG SERVICE
RUN test -n "${SERVICE}" || { echo "--build-arg SERVICE=<gateway|identity|geo|ingest|query|alarm-matcher|notifier> is required" >&2; exit 1; }
# pnpm 10 deploys non-injected workspaces only with --legacy: it copies each workspace package
# (with its compiled dist/) and installs production dependencies alone. Not --offline: `pnpm fetch`
# stores tarballs but no registry metadata, and the deploy resolves again (ERR_PNPM_NO_OFFLINE_META);
# --prefer-offline takes the metadata from the registry and every tarball from the store.
# The clean-up removes sources, tests and type declarations of OUR packages only (the deployed
# service at /out and the @stormhook packages copied under node_modules/.pnpm): third-party
# packages keep their `src` folders, which some of them run from (@grpc/grpc-js's build/src).
# Of the third-party packages only what never runs goes: TypeScript sources and declarations,
# source maps and Markdown documentation (licence and notice files stay), about 35 MB.
# The gateway's /docs renderer is a development dependency (its package tree is about 113 MB): the
# gateway image gets only its browser bundle, in docs-assets/ (services/gateway/src/docs/docs-route.ts).
# The console (web/console) is one too: the image gets its built files, in console-assets/
# (services/gateway/src/console/console-route.ts).
RUN --mount=type=cache,id=stormhook-pnpm,target=/pnpm/store --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then export NODE_EXTRA_CA_CERTS=/run/secrets/ca; fi \
 && pnpm --filter "@stormhook/${SERVICE}" deploy --legacy --prod --prefer-offline /out \
 && cd /out \
 && for pkg in /out $(find node_modules/.pnpm -mindepth 4 -maxdepth 4 -type d -path '*/node_modules/@stormhook/*'); do \
      find "$pkg" -path "$pkg/node_modules" -prune -o -type d \( -name src -o -name test-support -o -name codegen \) -prune -exec rm -rf {} + ; \
      find "$pkg" -path "$pkg/node_modules" -prune -o -type f \( -name '*.tsbuildinfo' -o -name 'tsconfig*.json' -o -name '*.spec.js' \
        -o -name '*.spec.js.map' -o -name '*.d.ts' -o -name '*.d.ts.map' \) -exec rm -f {} + ; \
    done \
 && find node_modules/.pnpm -path '*/node_modules/@stormhook' -prune -o -type f \( -name '*.ts' -o -name '*.mts' -o -name '*.cts' \
      -o -name '*.map' -o \( -name '*.md' ! -iname 'licen*' ! -iname 'copying*' ! -iname 'notice*' \) \) -exec rm -f {} + \
 && if [ "${SERVICE}" = gateway ]; then \
      assets="$(cd /src/services/gateway && node -p "require('node:path').join(require('node:path').dirname(require.resolve('@scalar/api-reference/style.css')), 'browser')")" \
      && mkdir -p /out/docs-assets && cp -R "$assets/." /out/docs-assets/ && find /out/docs-assets -name '*.map' -exec rm -f {} + \
      && test -f /out/docs-assets/standalone.js && test ! -e /out/node_modules/@scalar \
      && mkdir -p /out/console-assets && cp -R /src/web/console/dist/public/. /out/console-assets/ \
      && test -f /out/console-assets/index.html && test ! -e /out/node_modules/@stormhook/console; \
    fi \
 && test -f /out/dist/main.js


FROM ${RUNTIME_IMAGE} AS runtime
ARG SERVICE
# tini as PID 1 forwards SIGTERM to node (the services stop cleanly on it) and reaps zombies; npm,
# npx, corepack and yarn are not needed at run time and only widen the attack surface. The runtime
# base of `npm run images` already holds tini and no npm: then this step changes nothing.
RUN if [ ! -x /usr/bin/tini ]; then \
      apt-get update && apt-get install --yes --no-install-recommends tini && rm -rf /var/lib/apt/lists/*; \
    fi \
 && rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
      /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack /opt/yarn-* /usr/local/bin/yarn /usr/local/bin/yarnpkg
ENV NODE_ENV=production \
    NODE_OPTIONS=--enable-source-maps \
    STORMHOOK_SERVICE=${SERVICE}
WORKDIR /app
# Owned by root and not writable by the service's user: the code cannot be changed at run time,
# and the container runs with a read-only root filesystem (only /tmp is mounted writable).
COPY --from=build --chown=root:root /out/ /app/
COPY --chown=root:root --chmod=0444 deploy/docker/healthcheck.mjs /app/healthcheck.mjs
# The `node` user of the base image (uid/gid 1000): the chart's securityContext runs as the same ids.
USER 1000:1000
LABEL org.opencontainers.image.title="stormhook-${SERVICE}" \
      org.opencontainers.image.description="Stormhook ${SERVICE} service" \
      org.opencontainers.image.source="deploy/README.md"
# Docker and Compose use this; Kubernetes uses the chart's probes instead.
HEALTHCHECK --interval=15s --timeout=4s --start-period=30s --retries=3 CMD ["node", "/app/healthcheck.mjs"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/tini", "--", "node"]
CMD ["dist/main.js"]
