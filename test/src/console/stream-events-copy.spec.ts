import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../e2e/support/repo.js';

/**
 * The console codes against GET /v1/stream's event vocabulary, which the gateway owns
 * (services/gateway/src/stream/stream-events.ts, self-contained for this purpose). The browser
 * package cannot import the gateway's sources, so it holds a copy: the copy must stay the same file.
 */
describe("the console's copy of the stream event vocabulary", () => {
  const served = join(repoRoot, 'services', 'gateway', 'src', 'stream', 'stream-events.ts');
  const copy = join(repoRoot, 'web', 'console', 'src', 'stream', 'stream-events.ts');

  it('is the gateway’s file, byte for byte', function () {
    if (!existsSync(served)) this.skip();
    assert.equal(readFileSync(copy, 'utf8'), readFileSync(served, 'utf8'), `copy ${served} to ${copy}`);
  });
});
