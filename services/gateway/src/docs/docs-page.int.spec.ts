import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ensureChromium } from '@stormhook/testing';
import { serve, type RunningApp } from '../test-support/serve.js';

const run = promisify(execFile);

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) dir = resolve(dir, '..');
  return dir;
}

/**
 * Chromium flags of every run: headless as root, and every host but 127.0.0.1 unresolvable, so the
 * page renders only if it needs nothing from a CDN. The virtual time budget lets the renderer fetch
 * the document and draw before the DOM is dumped or the screenshot taken.
 */
function chromiumArgs(url: string, extra: string[]): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    '--virtual-time-budget=30000',
    '--window-size=1440,2200',
    ...extra,
    url,
  ];
}

/** GET /docs in headless Chromium (Debian's package, installed by ensureChromium when missing). */
describe('API reference page /docs in headless Chromium', function () {
  this.timeout(15 * 60_000); // a first run may install Chromium
  let app: RunningApp;
  let chromium: string;

  before(async () => {
    chromium = ensureChromium((m) => process.stdout.write(`      ${m}\n`));
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
    const url = `${app.baseUrl}/docs`;
    const { stdout } = await run(chromium, chromiumArgs(url, ['--dump-dom']), { maxBuffer: 64 * 1024 * 1024, timeout: 180_000 });
    const text = stdout.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    assert.match(text, /Create a user with a role and an initial password or an invitation/, 'an operation\'s summary is on the page');
    assert.match(text, /Webhooks.*post lightning\.strike callback/, 'a webhook callback is on the page, under Webhooks');
    const artifacts = join(repoRoot(), '.stack', 'test-artifacts');
    mkdirSync(artifacts, { recursive: true });
    const screenshot = join(artifacts, 'docs-page.png');
    await run(chromium, chromiumArgs(url, [`--screenshot=${screenshot}`]), { timeout: 180_000 });
    assert.ok(statSync(screenshot).size > 20_000, `a real screenshot at ${screenshot}`);
    process.stdout.write(`      screenshot: ${screenshot}\n`);
  });
});
