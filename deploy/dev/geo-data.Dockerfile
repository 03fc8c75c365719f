# syntax=docker/dockerfile:1.7
#
# Development only: the boundary GeoJSON files of ../shared/data/geo over HTTP, so that geo in a
# local cluster imports them from STORMHOOK_GEO_SOURCE (values-dev.yaml: http://geo-data:8080/) as a
# production geo imports its own. The Tiltfile builds it with that directory as the build context.
# The same Node base as the service images (deploy/dev/Dockerfile): nothing new to pull.

ARG NODE_IMAGE=node:24.21.0-slim
FROM ${NODE_IMAGE}
COPY --chown=1000:1000 *.geojson /srv/geo/
# A file by its base name, 404 for anything else (geo reads 404 as "this level is not provided").
COPY <<'EOF' /srv/serve.mjs
import { createReadStream, existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, join } from 'node:path';

const dir = '/srv/geo';
const server = createServer((req, res) => {
  const name = basename(new URL(req.url ?? '/', 'http://geo-data').pathname);
  const file = join(dir, name);
  if (!name.endsWith('.geojson') || !existsSync(file)) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/geo+json' });
  createReadStream(file).pipe(res);
});
server.listen(8080);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
EOF
USER 1000:1000
ENTRYPOINT ["node", "/srv/serve.mjs"]
