import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignored, instructions, lintDockerfile } from './dockerfile-lint.js';

const GOOD = `# syntax=docker/dockerfile:1.7
ARG NODE_IMAGE=node:24.21.0-slim
FROM \${NODE_IMAGE} AS build
RUN echo one \\
 && echo two
FROM \${NODE_IMAGE}
COPY --from=build /out/ /app/
COPY deploy/docker/healthcheck.mjs /app/healthcheck.mjs
USER 1000:1000
HEALTHCHECK CMD ["node", "/app/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "node"]
`;

describe('Dockerfile lint', () => {
  let root = '';
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'stormhook-docker-'));
    mkdirSync(join(root, 'deploy', 'docker'), { recursive: true });
    writeFileSync(join(root, 'deploy', 'docker', 'healthcheck.mjs'), '');
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('joins continued lines into one instruction', () => {
    const run = instructions(GOOD).find((i) => i.keyword === 'RUN');
    assert.equal(run?.args, 'echo one  && echo two');
  });

  it('accepts a pinned, non-root image with a health check', () => {
    assert.deepEqual(lintDockerfile(GOOD, ['**/dist'], root, { requireHealthcheck: true }), []);
  });

  it('reports root, unpinned bases, shell-form entrypoints, missing health checks and excluded sources', () => {
    const bad = GOOD.replace('node:24.21.0-slim', 'node:latest')
      .replace('USER 1000:1000', 'USER root')
      .replace('ENTRYPOINT ["/usr/bin/tini", "--", "node"]', 'ENTRYPOINT node dist/main.js')
      .replace(/HEALTHCHECK.*\n/, '');
    const problems = lintDockerfile(bad, ['deploy'], root, { requireHealthcheck: true });
    assert.equal(problems.length, 6, problems.join('\n'));
    assert.ok(problems.some((p) => p.includes('not pinned')));
    assert.ok(problems.some((p) => p.includes('final USER is root')));
    assert.ok(problems.some((p) => p.includes('exec-form ENTRYPOINT')));
    assert.ok(problems.some((p) => p.includes('no HEALTHCHECK')));
    assert.ok(problems.some((p) => p.includes('excluded by the ignore file')));
  });

  it('matches .dockerignore patterns, last match winning', () => {
    assert.equal(ignored('services/gateway/dist/main.js', ['**/dist']), true);
    assert.equal(ignored('services/gateway/src/main.ts', ['**/dist']), false);
    assert.equal(ignored('services/gateway/dist/main.js', ['**', '!services/*/dist/**']), false);
    assert.equal(ignored('services/gateway/src/main.ts', ['**', '!services/*/dist/**']), true);
  });
});
