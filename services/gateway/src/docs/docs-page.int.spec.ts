import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireRepoRoot } from '@stormhook/config';
import { ensureChromium, renderInChromium } from '@stormhook/testing';
import { serve, type RunningApp } from '../test-support/serve.js';

const repoRoot = (): string => requireRepoRoot(dirname(fileURLToPath(import.meta.url)));

/** GET /docs in headless Chromium (Debian's package, installed by ensureChromium when missing). */
describe('API reference page /docs in headless Chromium', function () {
  this.timeout(15 * 60_000); // a first run may install Chromium
  let app: RunningApp;
  before(async () => {
    ensureChromium((m) => process.stdout.write(`      ${m}\n`));
    app = await serve();
  });
  after(() => app?.close());

  it('serves the page and the renderer from the gateway, with a policy that allows nothing else', async () => {
    const page = await fetch(`${app.baseUrl}/docs`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /text\/html/);
    assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'self'; script-src 'self';/);
    assert.doesNotMatch(await page.text(), /https?:\/\//, 'the page names no other origin');
    const bundle = await fetch(`${app.baseUrl}/docs/assets/standalone.js`);
    assert.equal(bundle.status, 200);
    assert.ok((await bundle.arrayBuffer()).byteLength > 1_000_000, 'the renderer bundle itself');
  });

  it('renders an operation and a webhook callback as visible text, and keeps a screenshot', async () => {
    const artifacts = join(repoRoot(), '.stack', 'test-artifacts');
    mkdirSync(artifacts, { recursive: true });
    const screenshot = join(artifacts, 'docs-page.png');
    const operation = /Create a user with a role and an initial password or an invitation/;
    const webhook = /lightning\.strike callback/;
    const { visibleText } = await renderInChromium(`${app.baseUrl}/docs`, { ready: (text) => operation.test(text) && webhook.test(text), screenshot });
    assert.match(visibleText, operation, "an operation's summary is visible");
    assert.match(visibleText, /Webhooks[\s\S]*lightning\.strike callback/, 'a webhook callback is visible, under Webhooks');
    // A PNG of the viewport. Known limit: in headless Chromium Scalar 1.72 still paints its loading
    // placeholder over the reference while the text is already in the page, so the picture shows that.
    assert.deepEqual([...readFileSync(screenshot).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'a PNG');
    assert.ok(statSync(screenshot).size > 10_000, `a screenshot at ${screenshot}`);
    process.stdout.write(`      screenshot: ${screenshot}\n`);
  });
});
